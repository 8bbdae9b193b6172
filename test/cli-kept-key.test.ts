// `npm start` with no key configured keeps the key it generated in the data directory (issue 24
// item 14): two starts on one data directory serve the same key, printed on stderr at each start,
// never on stdout nor in the access log; the file is mode 0600.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from './helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dataDir = join(tempDir('petstore-kept-key-'), 'data');
const KEY_LINE = /Authorization: Bearer ([A-Za-z0-9_-]{32})' (http:\/\/\S+)\/pets/;

interface Run {
  stdout: string;
  stderr: string;
  key: string;
  status: number;
}

/** Starts `npm start` on the data directory, sends one request with the printed key, stops it (SIGTERM). */
async function startOnce(): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.PETSTORE_API_KEYS;
  delete env.DATABASE_URL;
  const child: ChildProcess = spawn('npm', ['start', '--', '--port', '0', '--data-dir', dataDir, '--access-log', '--no-docs'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (c) => (out.stdout += c));
  child.stderr!.on('data', (c) => (out.stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const deadline = Date.now() + 60_000;
    while (!KEY_LINE.test(out.stderr) || !/listening on/.test(out.stdout)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no key line; stderr: ${out.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const [, key, url] = KEY_LINE.exec(out.stderr)!;
    const res = await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${key}` } });
    await res.text();
    await new Promise((r) => setTimeout(r, 100)); // the access log line is written after the answer
    return { ...out, key: key!, status: res.status };
  } finally {
    child.kill('SIGTERM');
    assert.is(await exited, 0, out.stderr);
  }
}

test('two starts on one data directory: one key, kept mode 0600, on stderr each time, never on stdout', async () => {
  const first = await startOnce();
  assert.is(first.status, 200);
  assert.match(first.stderr, `generated one and kept it in ${join(dataDir, 'petstore-router.api-key')} (mode 0600`);
  const file = join(dataDir, 'petstore-router.api-key');
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.is(readFileSync(file, 'utf8').trim(), first.key);

  const second = await startOnce();
  assert.is(second.key, first.key, 'the same key after a restart');
  assert.is(second.status, 200);
  assert.match(second.stderr, `using the key kept in ${file}`);
  for (const run of [first, second]) {
    assert.match(run.stdout, /"msg":"request completed"/, 'the access log is on');
    assert.not.match(run.stdout, run.key, 'never on stdout or in the access log');
    assert.is(run.stderr.split(run.key).length - 1, 1, 'once on stderr per start');
  }
});

test.run();
