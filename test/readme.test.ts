// Every ```ts block of README runs as a new file (issue 38): it exits 0 printing what its
// `console.log(...) // expected` comment says, or, for a server, prints `listening on URL` and
// answers its health check there. Guides' blocks: test/docs-code.test.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { codeBlocks } from './helpers/markdown.js';

const root = join(import.meta.dirname, '..');
// Inside the project (not node_modules) so tsx resolves 'petstore-router' through tsconfig paths.
const dir = join(root, '.cache', `readme-${process.pid}`);

/** Runs `code` as a file; resolves once it exited, or once a server printed `listening on URL` and answered there. */
export function runBlock(code: string, name: string): Promise<{ code: number | null; stdout: string; stderr: string; served?: number }> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.mts`);
  writeFileSync(file, code);
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: dir, // a relative dataDir lands here, removed afterwards
      env: { ...process.env, PORT: '0', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const kill = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const url = /listening on (\S+)/.exec(stdout)?.[1];
      if (url === undefined || child.killed) return;
      fetch(`${url}/health`).then(
        (res) => {
          clearTimeout(kill);
          child.kill('SIGTERM');
          resolve({ code: 0, stdout, stderr, served: res.status });
        },
        (error: unknown) => (child.kill('SIGKILL'), reject(error as Error)),
      );
    });
    child.on('exit', (exit) => {
      clearTimeout(kill);
      resolve({ code: exit, stdout, stderr });
    });
  });
}

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = codeBlocks(readme).filter((b) => b.lang === 'ts');

test('README has its getting-started blocks: in-process, a server, a test', () => {
  assert.ok(blocks.length >= 3, `${blocks.length} ts blocks`);
});

blocks.forEach((block, i) => {
  test(`README's ts block at line ${block.line} runs as a new file`, async () => {
    const result = await runBlock(block.code, `block-${i}`);
    assert.is(result.code, 0, result.stderr);
    if (result.served !== undefined) return assert.is(result.served, 200, 'the server it started answers its health check');
    const expected = /console\.log\(.*\/\/ (.+)$/m.exec(block.code)?.[1];
    assert.ok(expected, 'a block that is not a server says what it prints');
    assert.is(result.stdout.trim().split('\n')[0], expected.trim());
  });
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test.run();
