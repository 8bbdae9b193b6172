import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { logLines, sample, scrape, until } from './helpers/observe.js';
import { send } from './reliability/helpers/load.js';
import { type Server, assertNoKeyInLogs, startServer, stopGracefully, tempDataDir } from './reliability/helpers/server.js';
import { tempDir } from './helpers/temp-dir.js';

const dir = tempDir('petstore-operating-');
const keysFile = join(dir, 'keys.txt');
// Random keys, so a path or a word in a log can never look like a part of one.
const KEY_A = randomBytes(18).toString('base64url');
const KEY_B = randomBytes(18).toString('base64url');
const keyIdOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 12);
const APP = 'https://app.example';

function usageError(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'adapters/cli.ts', 'serve', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  // 'close', not 'exit': the child's stderr may still hold its line when it exits.
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

test('operating flags: usage errors exit 2 with one clear line', async () => {
  const cases: [string[], RegExp][] = [
    [['--metrics-host', '0.0.0.0'], /--metrics-host needs --metrics-port/],
    [['--metrics-port', 'x'], /--metrics-port must be an integer/],
    [['--port', '9000', '--metrics-port', '9000'], /--metrics-port must differ from --port/],
    [['--cors-origin', 'https://app.example/'], /--cors-origin "https:\/\/app\.example\/" is not an origin/],
    [['--cors-origin', '*', '--cors-origin', APP], /give it alone/],
    [['--access-log=yes'], /access-log/],
  ];
  await Promise.all(
    cases.map(async ([args, message]) => {
      const run = await usageError(args);
      assert.is(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message, `${args.join(' ')}: ${run.stderr}`);
      assert.is(run.stderr.trim().split('\n').length, 1);
    }),
  );
});

/** The metrics URL the server announced on stderr. */
async function metricsUrl(server: Server): Promise<string> {
  await until(() => /metrics on (http:\/\/\S+)/.test(server.stderr()), 'the metrics line');
  return /metrics on (http:\/\/\S+)/.exec(server.stderr())![1]!;
}

test('serve --access-log --metrics-port --cors-origin on PGlite: log lines and metrics agree; SIGHUP reloads the keys; health 503 while draining', async () => {
  writeFileSync(keysFile, `${KEY_A}\n`);
  const server = await startServer(
    ['--data-dir', tempDataDir(), '--keys-file', keysFile, '--access-log', '--metrics-port', '0', '--cors-origin', APP],
    { keys: null },
  );
  try {
    const metrics = await metricsUrl(server);
    const created = await send(`${server.url}/pets`, {
      method: 'POST',
      body: '{"name":"Rex","categoryId":1}',
      key: KEY_A,
      headers: { 'x-request-id': 'create-1', origin: APP },
    });
    assert.is(created.status, 201);
    assert.is(created.headers['access-control-allow-origin'], APP);
    const id = JSON.parse(created.body).id;
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    for (let i = 0; i < 3; i++) assert.is((await send(`${server.url}/pets/${id}`, { key: KEY_A, headers: { traceparent } })).status, 200);
    assert.is((await send(`${server.url}/pets`, { key: 'wrong-key' })).status, 401);
    assert.is((await send(`${server.url}/nowhere`, { key: KEY_A })).status, 404);
    const preflight = await send(`${server.url}/pets`, {
      method: 'OPTIONS',
      key: '',
      headers: { origin: APP, 'access-control-request-method': 'POST' },
    });
    assert.is(preflight.status, 204);
    assert.is((await send(`${server.url}/health`, { key: '' })).status, 200);

    await until(() => logLines(server.stdout()).length === 8, '8 access log lines');
    assert.match(server.stdout(), /^listening on http:\/\/\S+\n\{/, 'the log lines follow the listening line');
    const lines = logLines(server.stdout());
    const first = lines[0]!;
    assert.equal(Object.keys(first), [
      'level',
      'time',
      'pid',
      'msg',
      'reqId',
      'method',
      'url',
      'route',
      'operationId',
      'status',
      'responseTime',
      'keyId',
    ]);
    assert.equal(
      { ...first, time: 0, responseTime: 0, pid: 0 },
      {
        level: 30,
        time: 0,
        pid: 0,
        msg: 'request completed',
        reqId: 'create-1',
        method: 'POST',
        url: '/v1/pets',
        route: '/v1/pets',
        operationId: 'createPet',
        status: 201,
        responseTime: 0,
        keyId: keyIdOf(KEY_A),
      },
    );
    assert.ok(Math.abs(first.time - Date.now()) < 60_000 && first.responseTime > 0);
    assert.is(lines[1]!.traceId, '4bf92f3577b34da6a3ce929d0e0e4736');
    assert.is(lines[1]!.route, '/v1/pets/{petId}');
    assert.is(lines[4]!.status, 401);
    assert.not.ok('keyId' in lines[4]!);
    assert.not.ok('route' in lines[5]!, 'an unmatched path has no route');
    assert.equal(
      lines.map((l) => l.status),
      [201, 200, 200, 200, 401, 404, 204, 200],
    );

    const scraped = await scrape(metrics);
    assert.is(scraped.status, 200);
    assert.is(scraped.type, 'text/plain; version=0.0.4; charset=utf-8');
    const count = (route: string, status: string, method = 'GET') =>
      sample(scraped.text, 'http_server_request_duration_seconds_count', {
        http_route: route,
        http_response_status_code: status,
        http_request_method: method,
      });
    assert.is(count('/v1/pets', '201', 'POST'), 1);
    assert.is(count('/v1/pets/{petId}', '200'), 3);
    assert.is(count('/v1/pets', '401'), 1);
    assert.is(count('unmatched', '404'), 1);
    assert.is(count('/v1/health', '200'), 1);
    assert.is(sample(scraped.text, 'http_server_request_duration_seconds_count'), lines.length, 'one observation per log line');
    assert.is(sample(scraped.text, 'petstore_deprecated_requests_total', { operation: 'getPet', key_id: keyIdOf(KEY_A) }), 3);
    assert.ok(sample(scraped.text, 'process_resident_memory_bytes') > 0);
    assert.match(scraped.text, /process_cpu_seconds_total /);

    // SIGHUP: a new set for new requests; an empty or missing file keeps the set, one line each.
    writeFileSync(keysFile, `# rotated\n${KEY_B}\n`);
    server.child.kill('SIGHUP');
    await until(() => /1 API key\(s\) from .* in use for new requests/.test(server.stderr()), 'the reload line');
    assert.is((await send(`${server.url}/pets`, { key: KEY_B })).status, 200);
    assert.is((await send(`${server.url}/pets`, { key: KEY_A })).status, 401);
    writeFileSync(keysFile, '# nothing\n\n');
    server.child.kill('SIGHUP');
    await until(() => /contains no key; the keys in use stay/.test(server.stderr()), 'the empty-file line');
    rmSync(keysFile);
    server.child.kill('SIGHUP');
    await until(() => /cannot read the keys file .*; the keys in use stay/.test(server.stderr()), 'the unreadable line');
    writeFileSync(keysFile, `${KEY_A},x\n`);
    server.child.kill('SIGHUP');
    await until(() => /must be a non-empty string .*; the keys in use stay/.test(server.stderr()), 'the invalid-key line');
    assert.is((await send(`${server.url}/pets`, { key: KEY_B })).status, 200, 'the last good set is still in use');
    assert.is(
      server
        .stderr()
        .split('\n')
        .filter((l) => /SIGHUP/.test(l)).length,
      4,
      'one line per SIGHUP',
    );

    // From SIGTERM on, health answers 503 fail (here on a connection whose request was under way).
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (c: string) => (answer += c));
    await new Promise((r) => socket.once('connect', r));
    socket.write('GET /v1/health HTTP/1.1\r\nhost: x\r\n');
    await new Promise((r) => setTimeout(r, 300));
    const stopped = stopGracefully(server);
    await new Promise((r) => setTimeout(r, 300));
    socket.write('\r\n');
    await new Promise((r) => socket.once('close', r));
    assert.match(answer, /^HTTP\/1\.1 503 /);
    assert.match(answer, /retry-after: 5/i);
    assert.match(answer, /\{"status":"fail","output":"the server is shutting down"\}$/);
    assert.is((await stopped).code, 0);
    assertNoKeyInLogs(server, [KEY_A, KEY_B]);
  } finally {
    server.child.kill('SIGKILL');
  }
});

test('SIGHUP without --keys-file does not stop the server and says there is nothing to re-read', async () => {
  const server = await startServer(['--data-dir', tempDataDir()]);
  try {
    server.child.kill('SIGHUP');
    await until(() => /nothing to re-read/.test(server.stderr()), `the SIGHUP line: ${server.stderr()}`);
    assert.is((await send(`${server.url}/pets`)).status, 200);
    assert.is(logLines(server.stdout()).length, 0, 'no access log unless asked for');
    assert.is((await stopGracefully(server)).code, 0);
  } finally {
    server.child.kill('SIGKILL');
  }
});

test.run();
