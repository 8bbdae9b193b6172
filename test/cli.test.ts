import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from './helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KEY = 'cli-test-key-0123456789';
const dataDir = join(tempDir('petstore-cli-'), 'data');

/** Every process a test started and that has not exited: stopped after the tests, whatever happened. */
const started = new Set<ChildProcess>();

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the first match of `pattern` in stdout (or stderr), rejects if the process exits first. */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr', ms?: number): Promise<RegExpMatchArray>;
  exit: Promise<number | null>;
}

function start(command: string, args: string[], env: Record<string, string | undefined> = {}): Running {
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, PETSTORE_API_KEYS: undefined, DATABASE_URL: undefined, ...env };
  for (const k of Object.keys(fullEnv)) if (fullEnv[k] === undefined) delete fullEnv[k];
  const child = spawn(command, args, { cwd: ROOT, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  child.on('exit', () => started.delete(child));
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c) => (out.stdout += c));
  child.stderr.on('data', (c) => (out.stderr += c));
  // 'close', not 'exit': at 'exit' the child's output may still be in its pipes (Node's docs).
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const waitFor = (pattern: RegExp, stream: 'stdout' | 'stderr' = 'stdout', ms = 30_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`timed out waiting for ${pattern}; stderr: ${out.stderr}`)), ms);
      const check = () => {
        const m = out[stream].match(pattern);
        if (m) done(undefined, m);
      };
      const onExit = () => setImmediate(() => (check(), done(new Error(`exited before ${pattern}; stderr: ${out.stderr}`))));
      const done = (error?: Error, m?: RegExpMatchArray) => {
        clearTimeout(timer);
        child.stdout.off('data', check);
        child.stderr.off('data', check);
        child.off('exit', onExit);
        if (m) resolve(m);
        else reject(error ?? new Error(`no match for ${pattern}`));
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      child.once('exit', onExit);
      check();
    });
  return { child, stdout: () => out.stdout, stderr: () => out.stderr, waitFor, exit };
}

const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  start(process.execPath, ['--import', 'tsx', 'adapters/cli.ts', ...args], env);

async function get(url: string, key: string, agent?: Agent, init: { method?: string; body?: string } = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: init.method ?? 'GET', agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

test('usage errors exit 2 with a clear message; --help and --version exit 0', async () => {
  const cases: [string[], RegExp][] = [
    [[], /a command is required/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['serve', '--bogus'], /Unknown option '--bogus'/],
    [['serve', '--port', 'eighty'], /--port must be an integer/],
    [['serve', '--port', '70000'], /--port must be an integer/],
    [['serve', '--database', 'postgres://x/y', '--data-dir', '/tmp/x'], /--database and --data-dir cannot be used together/],
    [['serve', '--key', 'secret'], /never taken on the command line/],
    [['serve', '--keys=secret'], /never taken on the command line/],
    [['serve', '--workers', '2', '--data-dir', '/tmp/x'], /--workers needs PostgreSQL/],
    [['serve', '--no-prepared-statements', '--data-dir', '/tmp/x'], /--no-prepared-statements needs PostgreSQL/],
    [['migrate'], /migrate needs --database/],
    [['serve', '--rate-limit', '100'], /--rate-limit must be LIMIT\/WINDOW_SECONDS/],
    [['serve', '--rate-limit', '0/60'], /--rate-limit must be LIMIT\/WINDOW_SECONDS/],
    [['serve', '--rate-limit', '10/1.5'], /--rate-limit must be LIMIT\/WINDOW_SECONDS/],
    [['serve', '--no-docs=yes'], /--no-docs/],
    [['serve', '--read-replica', 'postgres://r/y', '--data-dir', '/tmp/x'], /--read-replica needs PostgreSQL/],
    [['serve', '--database', 'postgres://x/y', '--read-replica', ''], /--read-replica needs a URL/],
  ];
  await Promise.all(
    cases.map(async ([args, message]) => {
      const run = cli(args);
      assert.is(await run.exit, 2, `${args.join(' ')}: ${run.stderr()}`);
      assert.match(run.stderr(), message);
      assert.is(run.stderr().trim().split('\n').length, 1, 'one line');
      assert.not.match(run.stderr(), /secret/, 'a key is never echoed');
    }),
  );
  const help = cli(['--help']);
  assert.is(await help.exit, 0);
  assert.match(help.stdout(), /petstore-router serve \[--port 8080\]/);
  const version = cli(['--version']);
  assert.is(await version.exit, 0);
  assert.is(version.stdout().trim(), JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
});

test('openapi prints the OpenAPI document on stdout, the same one the server serves', async () => {
  const run = cli(['openapi']);
  assert.is(await run.exit, 0, run.stderr());
  const doc = JSON.parse(run.stdout());
  assert.is(doc.openapi, '3.1.0');
  assert.is(doc.info.version, '1.0.0');
  assert.ok(doc.paths['/pets'] && doc.paths['/pets/{petId}'] && doc.paths['/store/orders']);
  const extra = cli(['openapi', 'out.json']);
  assert.is(await extra.exit, 2);
  assert.match(extra.stderr(), /openapi takes no arguments/);
});

test('an unreachable database is one clear line and exit 1', async () => {
  const run = cli(['serve', '--port', '0', '--database', 'postgres://user:hunter2@127.0.0.1:1/nothing']);
  assert.is(await run.exit, 1);
  assert.match(
    run.stderr(),
    /^petstore-router: cannot open the database \(postgres:\/\/user:\*\*\*@127\.0\.0\.1:1\/nothing\): .*ECONNREFUSED/,
  );
  assert.is(run.stderr().trim().split('\n').length, 1);
  assert.not.match(run.stderr(), /hunter2|\n\s+at /);
});

test('serve on PGlite: listening line, requests with a key, the data directory locked, SIGTERM exits 0', async () => {
  const server = cli(['serve', '--port', '0', '--data-dir', dataDir], { PETSTORE_API_KEYS: `other-key, ${KEY}` });
  const [, url] = await server.waitFor(/^listening on (http:\/\/127\.0\.0\.1:\d+\/v1)\n/);
  assert.not.match(server.stderr(), /curl/, 'no generated key when keys are configured');
  // The API reference page: its address on stderr, served without a key (decisions, "API reference page").
  await server.waitFor(new RegExp(`^petstore-router: API reference at ${url}/docs$`, 'm'), 'stderr');
  const docs = await get(`${url}/docs`, '');
  assert.is(docs.status, 200);
  assert.match(docs.body, /swagger-ui-bundle\.js/);
  const created = await get(`${url}/pets`, KEY, undefined, { method: 'POST', body: '{"name":"Rex","categoryId":1}' });
  assert.is(created.status, 201, created.body);
  assert.is((await get(`${url}/pets`, 'wrong')).status, 401);
  // Issue 24 item 15: GET / points to the page, the document and health (JSON, or HTML for a browser).
  const origin = url!.replace(/\/v1$/, '');
  const index = await fetch(`${origin}/`);
  assert.is(index.status, 200);
  assert.equal(await index.json(), {
    name: 'petstore-router',
    api: 'v1',
    docs: 'v1/docs',
    openapi: 'v1/openapi.json',
    health: 'v1/health',
  });
  assert.is(index.headers.get('link'), '<v1/docs>; rel="service-doc", <v1/openapi.json>; rel="service-desc", <v1/health>; rel="status"');
  for (const rel of ['v1/docs', 'v1/openapi.json', 'v1/health']) assert.is((await fetch(new URL(rel, `${origin}/`))).status, 200, rel);
  const html = await fetch(`${origin}/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(await html.text(), /<a href="v1\/docs">API reference<\/a>/);
  assert.is((await get(`${origin}/elsewhere`, KEY)).status, 404, "other paths are still the store's 404");

  const second = cli(['serve', '--port', '0', '--data-dir', dataDir], { PETSTORE_API_KEYS: KEY });
  assert.is(await second.exit, 1);
  assert.match(second.stderr(), new RegExp(`data directory .*data is in use by process ${server.child.pid}`));

  server.child.kill('SIGTERM');
  assert.is(await server.exit, 0, server.stderr());
  assert.not.ok(existsSync(join(dataDir, 'petstore-router.lock')), 'lock released');
});

test('with no key configured a key is generated, printed once on stderr, and works; a stale lock is taken over', async () => {
  const dead = start(process.execPath, ['-e', '']);
  await dead.exit;
  writeFileSync(join(dataDir, 'petstore-router.lock'), `${dead.child.pid}\n`);
  const server = cli(['serve', '--port', '0', '--data-dir', dataDir]);
  const [, url] = await server.waitFor(/^listening on (http:\/\/127\.0\.0\.1:\d+\/v1)\n/);
  const [, key] = await server.waitFor(/Authorization: Bearer ([A-Za-z0-9_-]{32})' (\S+)\/pets/, 'stderr');
  assert.is(server.stderr().split(key!).length - 1, 1, 'the key appears exactly once');
  const list = await get(`${url}/pets`, key!);
  assert.is(list.status, 200);
  assert.match(list.body, /"name":"Rex"/, 'the data survived the restart');
  server.child.kill('SIGINT');
  assert.is(await server.exit, 0);
});

test('npm start serves with --keys-file; SIGTERM to the npm process stops it gracefully (exit 0)', async () => {
  const keysFile = join(dataDir, '..', 'keys.txt');
  writeFileSync(keysFile, `# comment\n\n  ${KEY}  \nsecond-key\n`);
  const npm = start('npm', [
    'start',
    '--',
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--keys-file',
    keysFile,
    '--rate-limit',
    '2/3600',
    '--no-docs',
  ]);
  const [, url] = await npm.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+\/v1)\n/);
  assert.is((await get(`${url}/pets`, 'second-key')).status, 200);
  assert.is((await get(`${url}/pets`, 'comment')).status, 401);
  // --rate-limit 2/3600 (a 401 is not counted) and --no-docs.
  assert.is((await get(`${url}/pets`, 'second-key')).status, 200);
  const limited = await get(`${url}/pets`, 'second-key');
  assert.is(limited.status, 429);
  assert.is(JSON.parse(limited.body).code, 'rate_limited');
  assert.is((await get(`${url}/pets`, KEY)).status, 200, 'another key has its own count');
  assert.is((await get(`${url}/docs`, '')).status, 401);
  assert.not.match(npm.stderr(), /API reference/);
  npm.child.kill('SIGTERM');
  assert.is(await npm.exit, 0, npm.stderr());
  assert.not.ok(existsSync(join(dataDir, 'petstore-router.lock')), 'node itself shut down and released the lock');
});

/** Socket inodes of the established connections to `port` held open by process `pid`. */
function connectionsOf(pid: number, port: number): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const localPort = parseInt(cols[1]!.split(':')[1]!, 16);
      if (localPort === port && cols[3] === '01' && inodes.has(cols[9]!)) count++;
    }
  }
  return count;
}

const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl || process.env.CI) {
  test('--workers 2 on PostgreSQL: both workers answer requests; SIGTERM stops them all (exit 0)', async () => {
    assert.ok(databaseUrl, 'DATABASE_URL must be set in CI: this test may not be skipped');
    const migrated = cli(['migrate', '--database', databaseUrl]);
    assert.is(await migrated.exit, 0, migrated.stderr());
    assert.match(migrated.stdout(), /applied|up to date/);

    const server = cli(['serve', '--port', '0', '--workers', '2'], { DATABASE_URL: databaseUrl, PETSTORE_API_KEYS: KEY });
    const [, url, port] = await server.waitFor(/^listening on (http:\/\/127\.0\.0\.1:(\d+)\/v1)\n/);
    const workers = [
      ...(await server.waitFor(/(worker (\d+) listening[\s\S]*){2}/, 'stderr')).input!.matchAll(/worker (\d+) listening/g),
    ].map((m) => Number(m[1]));
    assert.is(new Set(workers).size, 2);
    assert.is(server.stdout().match(/listening on/g)!.length, 1, 'the listening line is printed once');

    // Four keep-alive connections: the primary hands them to the workers in turn.
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const created = await get(`${url}/pets`, KEY, agent, { method: 'POST', body: '{"name":"Clustered","categoryId":7}' });
    assert.is(created.status, 201, created.body);
    const id = (JSON.parse(created.body) as { id: number | string }).id;
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([1, 2, 3, 4].map(() => get(`${url}/pets/${id}`, KEY, agent)));
      for (const a of answers) assert.is(a.status, 200, a.body);
    }
    const held = workers.map((pid) => connectionsOf(pid, Number(port)));
    assert.ok(
      held.every((n) => n >= 1),
      `each worker holds connections that were answered: ${held.join(', ')}`,
    );
    agent.destroy();

    server.child.kill('SIGTERM');
    assert.is(await server.exit, 0, server.stderr());
    for (const pid of workers) assert.not.ok(existsSync(`/proc/${pid}`), `worker ${pid} exited`);
  });
} else {
  test.skip('--workers 2 on PostgreSQL (DATABASE_URL unset)', () => {});
}

test.after(() => {
  for (const child of started) child.kill('SIGKILL');
});

test.run();
