// A process that closed its stores exits at once: no timer of ours or of PGlite keeps Node alive
// after the last close() (issue 25; upstream https://github.com/electric-sql/pglite/issues/925).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = join(import.meta.dirname, '..');
/** PGlite used to keep Node alive 10 s after the last write; an exit within this counts as at once. */
const AT_ONCE_MS = 1_000;

/** Runs a file in a new node process; resolves with its output and when (epoch ms) it exited. */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; exitedAt: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const kill = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(kill);
      resolve({ code, stdout, stderr, exitedAt: Date.now() });
    });
  });
}

/** The latest `closed <epoch ms>` line a child printed. */
function lastClose(stderr: string): number {
  const times = [...stderr.matchAll(/^closed (\d+)$/gm)].map((m) => Number(m[1]));
  assert.ok(times.length > 0, `the child printed its close times: ${stderr.slice(-1500)}`);
  return Math.max(...times);
}

test("README's first snippet exits at once after its db.destroy()", async () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const code = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('\n## Use it in-process\n')))![1]!;
  assert.match(code, /await db\.destroy\(\)\s*(\/\/.*)?\s*$/, 'the snippet ends by closing its database');
  const dir = join(root, '.cache', 'clean-exit');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'readme-snippet.mts');
  writeFileSync(file, `${code}\nprocess.stderr.write(\`closed \${Date.now()}\\n\`)\n`);
  const { code: exit, stdout, stderr, exitedAt } = await run([file]);
  assert.is(exit, 0, stderr);
  assert.match(stdout, /^201 /);
  const after = exitedAt - lastClose(stderr);
  assert.ok(after < AT_ONCE_MS, `exited ${after} ms after its last close()`);
});

test('a node:test file of three test stores exits at once after the last close()', async () => {
  const { code, stdout, stderr, exitedAt } = await run([join(root, 'test/helpers/three-tests.node-test.ts')]);
  assert.is(code, 0, stdout + stderr);
  assert.match(stdout, /# pass 3/);
  const after = exitedAt - lastClose(stderr);
  assert.ok(after < AT_ONCE_MS, `exited ${after} ms after its last close()`);
});

test.run();
