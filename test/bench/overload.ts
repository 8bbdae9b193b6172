/**
 * Overload (issue 22): the standalone server on PostgreSQL with its defaults (load shedding on),
 * creating pets with 32 connections, then with 2,000, every client honouring `Retry-After` (it
 * waits that long, up to twice as long, so refused clients do not come back in one wave),
 * while a probe asks `/v1/health` every 200 ms. Figures are ratios against the 32-connection run
 * of the same process in the same run, so a loaded machine shifts both alike; re-take them on a
 * quiet machine before quoting any. The targets: only 201 and 503 (each 503 with Retry-After and
 * an Error body), p99 of the 201s at most 5x the 32-connection p99, 201/s at least 0.8x, health
 * 200 within 1 s throughout.
 */
import { spawn } from 'node:child_process';
import type { Run as ClientRun } from './overload-client.js';
import { config } from './config.js';
import { cpuTimes } from './proc.js';
import { compile, serverDefs, start } from './servers.js';
import { fmt, percentile, table } from './stats.js';

interface Run extends ClientRun {
  /** The server's CPU seconds (user + system) during the run. */
  cpu: number;
}

const root = new URL('../../', import.meta.url).pathname;

/** One run of the load process (overload-client.ts) on the load core, with the server's CPU time meanwhile. */
async function load(origin: string, pid: number, connections: number, seconds: number): Promise<Run> {
  const before = cpuTimes(pid);
  const child = spawn(
    'taskset',
    [
      '-c',
      config.loadCpu,
      process.execPath,
      '--import',
      'tsx',
      'test/bench/overload-client.ts',
      origin,
      String(connections),
      String(seconds),
      config.apiKey,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`the load process exited with ${code}`);
  const after = cpuTimes(pid);
  return { ...(JSON.parse(out) as ClientRun), cpu: after.user + after.system - before.user - before.system };
}

export async function runOverload(log: (s: string) => void): Promise<string> {
  const def =
    serverDefs().find((d) => d.name === 'petstore') ??
    (() => {
      throw new Error('the overload suite needs the petstore server (BENCH_SERVERS)');
    })();
  const file = (await compile([def])).get(def.name)!;
  const server = await start(def, file, config.port + 90);
  const seconds = config.quick ? 6 : 20;
  try {
    await load(server.origin, server.pid, 32, 2); // warm-up
    const base = await load(server.origin, server.pid, 32, seconds);
    log(
      `  32 connections: ${fmt.int(base.created / seconds)} 201/s, p99 ${fmt.ms(percentile(base.createdMs, 99))} ms, server CPU ${fmt.ratio(base.cpu / seconds)}`,
    );
    const many = await load(server.origin, server.pid, 2_000, seconds);
    log(
      `  2,000 connections: ${fmt.int(many.created / seconds)} 201/s, p99 ${fmt.ms(percentile(many.createdMs, 99))} ms, ${many.refused} 503, server CPU ${fmt.ratio(many.cpu / seconds)}`,
    );
    const row = (r: Run) => {
      const healthMax = Math.max(...r.health.map((h) => h.ms));
      const healthOk = r.health.every((h) => h.status === 200 && h.ms < 1_000);
      return [
        fmt.int(r.connections),
        fmt.int(r.created / r.seconds),
        fmt.ms(percentile(r.createdMs, 50)),
        fmt.ms(percentile(r.createdMs, 99)),
        `${fmt.int(r.refused)} (Retry-After ${r.retryAfters.map(([s, n]) => `${s}s x${n}`).join(', ') || '-'})`,
        `${fmt.int((r.cpu / r.seconds) * 100)} %`,
        r.wrong.length === 0 ? 'none' : JSON.stringify(Object.fromEntries(r.wrong)),
        `${r.health.length} probes, max ${fmt.ms(healthMax)} ms${healthOk ? '' : ' (NOT all 200 within 1 s)'}`,
      ];
    };
    const p99Ratio = percentile(many.createdMs, 99) / percentile(base.createdMs, 99);
    const rateRatio = many.created / base.created;
    const healthOk = many.health.every((h) => h.status === 200 && h.ms < 1_000);
    const verdict = [
      `p99 of 201s at 2,000 / at 32: ${fmt.ratio(p99Ratio)} (target <= 5x) ${p99Ratio <= 5 ? 'met' : 'NOT met'}`,
      `201/s at 2,000 / at 32: ${fmt.ratio(rateRatio)} (target >= 0.8x) ${rateRatio >= 0.8 ? 'met' : 'NOT met'}`,
      `only 201 and well-formed 503: ${many.wrong.length === 0 ? 'met' : 'NOT met'}; health 200 within 1 s throughout: ${healthOk ? 'met' : 'NOT met'}`,
    ];
    return [
      `The standalone server with its defaults (load shedding at 40 in flight), \`POST /v1/pets\` for ${seconds} s per run after the connections opened (one per millisecond, not measured); clients wait \`Retry-After\` (times 1 to 2, so refused clients do not come back in one wave) after a 503. Health probed every 200 ms. A loaded machine moves both runs: read the ratios, re-take on a quiet machine.`,
      '',
      table(['connections', '201/s', 'p50 ms', 'p99 ms', '503s', 'server CPU', 'other answers', 'health'], [row(base), row(many)]),
      '',
      ...verdict.map((v) => `- ${v}`),
    ].join('\n');
  } finally {
    await server.stop();
  }
}
