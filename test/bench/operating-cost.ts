/**
 * Indicative cost of the operating features (docs/operations.md, "What is tested"): not part
 * of `npm run bench`, run by hand on a quiet machine:
 *
 *   BENCH_DATABASE_URL=postgres://… node --import tsx test/bench/operating-cost.ts [BASE_REF]
 *
 * 1. In-process: µs per `store.fetch` of answers that need no database (a 401, the OpenAPI
 *    document), at BASE_REF (default: the commit before request ids, 2864694) and in the working
 *    tree, in alternating rounds: the cost every request pays (the X-Request-Id).
 * 2. The standalone server's onResponse hooks alone, on a synthetic event: µs per request of the
 *    access log (lines written to /dev/null in 4 KiB writes) and of the metrics (prom-client).
 * 3. Over HTTP on PostgreSQL with wrk: the standalone server's CPU time per `GET /v1/pets/{id}`
 *    with no flag, --access-log, --metrics-port, and both, in alternating rounds.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { cpuTimes } from './proc.js';
import { parseWrk } from './wrk.js';

const root = new URL('../../', import.meta.url).pathname;
const baseRef = process.argv[2] ?? '2864694';
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
const KEY = 'operating-cost-key';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function inProcess(): Promise<void> {
  const dir = join(root, '.cache/operating-cost/base');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${baseRef} src | tar -x -C ${dir}`], { cwd: root });
  const trees = { base: `${dir}/src/index.ts`, head: `${root}src/index.ts` };
  const stores: Record<string, { fetch(r: Request): Promise<Response> }> = {};
  for (const [name, path] of Object.entries(trees)) {
    const { createPetStore } = (await import(path)) as typeof import('../../src/index.js');
    // Kysely-shaped (createPetStore checks db's shape); these requests never reach a database.
    stores[name] = createPetStore({
      db: { selectFrom() {}, executeQuery() {}, withSchema() {}, transaction() {}, destroy() {} } as never,
      keys: [KEY],
    });
  }
  const cases: [string, () => Request][] = [
    ['401 (wrong key)', () => new Request('http://x/v1/pets', { headers: { authorization: 'Bearer wrong' } })],
    ['GET /v1/openapi.json', () => new Request('http://x/v1/openapi.json')],
  ];
  for (const [label, make] of cases) {
    const samples: Record<string, number[]> = { base: [], head: [] };
    // Short alternating blocks: on a shared machine the load drifts within seconds.
    for (let round = 0; round < 60; round++) {
      for (const name of round % 2 ? ['head', 'base'] : ['base', 'head']) {
        const n = 2_000;
        const started = performance.now();
        for (let i = 0; i < n; i++) await (await stores[name]!.fetch(make())).text();
        samples[name]!.push(((performance.now() - started) * 1000) / n);
      }
    }
    const [b, h] = [median(samples.base!), median(samples.head!)];
    console.log(
      `in-process ${label}: ${baseRef} ${b.toFixed(2)} us, working tree ${h.toFixed(2)} us (median of 60 alternating blocks of 2k), +${(h - b).toFixed(2)} us`,
    );
  }
}

async function hooks(): Promise<void> {
  const { createAccessLog } = await import('../../adapters/cli/access-log.js');
  const { createMetrics } = await import('../../adapters/cli/metrics.js');
  const devNull = openSync('/dev/null', 'w');
  const log = createAccessLog((chunk) => void writeSync(devNull, chunk));
  const metrics = createMetrics(false);
  // What the Node server hands the store: method and url are plain strings (adapters/node's lazy
  // request), not undici getters that serialise the URL on each read.
  const request = { method: 'GET', url: 'http://127.0.0.1:8080/v1/pets/42?x=1' } as Request;
  const event = (i: number) => ({
    request,
    status: i % 10 ? 200 : 404,
    operationId: 'getPet',
    route: '/v1/pets/{petId}',
    durationMs: 0.8 + (i % 7) / 10,
    requestId: '0f8fad5b-d9cb-469f-a165-70867728950e',
    keyId: '9b346041bc9a',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    error: undefined,
  });
  for (const [label, hook] of [
    ['access log', (i: number) => log.onResponse(event(i))],
    ['metrics', (i: number) => metrics.onResponse(event(i))],
  ] as const) {
    const rounds: number[] = [];
    for (let round = 0; round < 8; round++) {
      const n = 50_000;
      const started = performance.now();
      // Flushed every 16 events, as a busy server's event loop turn would (a backlog of 50k lines
      // would measure the garbage collector instead).
      for (let i = 0; i < n; i++) {
        hook(i);
        if (i % 16 === 15) log.flush();
      }
      log.flush();
      rounds.push(((performance.now() - started) * 1000) / n);
    }
    console.log(`hook ${label}: ${median(rounds).toFixed(2)} us per request (median of 8 rounds of 50k)`);
  }
}

async function start(args: string[]): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'adapters/cli.ts', 'serve', '--port', '0', '--database', databaseUrl!, ...args],
    {
      cwd: root,
      env: { ...process.env, PETSTORE_API_KEYS: KEY },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  let out = '';
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = /listening on (http:\/\/[^/\s]+)/.exec(out);
      if (m) resolve(m[1]!);
      if (out.length > 1e6) out = ''; // the access log: read and dropped
    });
    child.once('exit', () => reject(new Error('the server exited')));
  });
  return { child, origin };
}

async function overHttp(): Promise<void> {
  if (!databaseUrl) return console.log('over HTTP: skipped (no BENCH_DATABASE_URL)');
  const configs: [string, string[]][] = [
    ['no flag', []],
    ['--access-log', ['--access-log']],
    ['--metrics-port', ['--metrics-port', '0']],
    ['both', ['--access-log', '--metrics-port', '0']],
  ];
  const servers = await Promise.all(configs.map(([, args]) => start(args)));
  for (let i = 0; i < 100; i++) {
    await fetch(`${servers[0]!.origin}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":1}',
    });
  }
  const script = join(root, '.cache/operating-cost/get.lua');
  writeFileSync(script, 'math.randomseed(42)\nrequest = function()\n  return wrk.format("GET", "/v1/pets/" .. math.random(1, 100))\nend\n');
  const cpu: number[][] = configs.map(() => []);
  const rps: number[][] = configs.map(() => []);
  for (let round = 0; round < 6; round++) {
    const order = configs.map((_, i) => i);
    if (round % 2) order.reverse();
    for (const i of order) {
      const { child, origin } = servers[i]!;
      const before = cpuTimes(child.pid!);
      const out = execFileSync('wrk', [
        '-t1',
        '-c16',
        '-d3s',
        '-H',
        `Authorization: Bearer ${KEY}`,
        '-s',
        script,
        `${origin}/v1/pets/1`,
      ]).toString();
      const after = cpuTimes(child.pid!);
      const result = parseWrk(out);
      if (result.non2xx || result.errors) throw new Error(`${configs[i]![0]}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      cpu[i]!.push(((after.user + after.system - before.user - before.system) * 1e6) / result.requests);
      rps[i]!.push(result.rps);
    }
  }
  const base = median(cpu[0]!);
  for (const [i, [label]] of configs.entries()) {
    const c = median(cpu[i]!);
    console.log(
      `HTTP GET /v1/pets/{id}, ${label}: ${c.toFixed(1)} us CPU/request (+${(c - base).toFixed(1)}), ${Math.round(median(rps[i]!))} req/s (median of 6 rounds of 3 s, 16 connections)`,
    );
  }
  for (const { child } of servers) child.kill('SIGTERM');
}

await inProcess();
await hooks();
await overHttp();
