// A process that closed its stores exits at once: no timer of ours or of PGlite keeps Node alive
// after the last close() (issue 25; upstream https://github.com/electric-sql/pglite/issues/925).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = join(import.meta.dirname, '..');
/**
 * PGlite used to keep Node alive 10 s after the last write. Within this after the last close(), the
 * child's event loop must be empty (its 'exit' event); the process itself must be gone within
 * TEARDOWN_MS: after 'exit', freeing PGlite's WASM memory and tsx's loader thread take time of
 * their own, which a loaded machine stretches past a second.
 */
const AT_ONCE_MS = 1_000;
const TEARDOWN_MS = 3_000;
/** Prepended to each child: prints when its event loop has emptied. */
const EXIT_PROBE = "process.on('exit', () => process.stderr.write(`exit ${Date.now()}\\n`));\n";

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

/** Checks the child's loop emptied within AT_ONCE_MS of its last close() and it was gone within TEARDOWN_MS. */
function exitedAtOnce(stderr: string, exitedAt: number): void {
  const closed = lastClose(stderr);
  const exit = Number(/^exit (\d+)$/m.exec(stderr)?.[1]);
  assert.ok(exit - closed < AT_ONCE_MS, `event loop empty ${exit - closed} ms after its last close()`);
  assert.ok(exitedAt - closed < TEARDOWN_MS, `process gone ${exitedAt - closed} ms after its last close()`);
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
  writeFileSync(file, `${EXIT_PROBE}${code}\nprocess.stderr.write(\`closed \${Date.now()}\\n\`)\n`);
  const { code: exit, stdout, stderr, exitedAt } = await run([file]);
  assert.is(exit, 0, stderr);
  assert.match(stdout, /^201 /);
  exitedAtOnce(stderr, exitedAt);
});

test('a node:test file of three test stores exits at once after the last close()', async () => {
  const { code, stdout, stderr, exitedAt } = await run([join(root, 'test/helpers/three-tests.node-test.ts')]);
  assert.is(code, 0, stdout + stderr);
  assert.match(stdout, /# pass 3/);
  exitedAtOnce(stderr, exitedAt);
});

test.run();
