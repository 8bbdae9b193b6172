// Test files written to a temporary directory and run by one of uvu's runners (uvu itself,
// scripts/uvu-strict.ts, scripts/uvu-parallel.ts): what the runner tests check its report and
// exit code against.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
/** The repository's root, where the runners run. */
export const root = new URL('../..', import.meta.url).pathname;
const imports = `import { test } from ${JSON.stringify(require.resolve('uvu'))};\nimport * as assert from ${JSON.stringify(require.resolve('uvu/assert'))};\n`;

/** A file whose one test passes and one is skipped. */
export const passing = `test('one', () => assert.ok(true));\ntest.skip('two', () => {});\ntest.run();\n`;
/** A file whose `before` hook throws: its two tests never run. */
export const failingHook = `test.before(() => { throw new Error('no database'); });\ntest('a', () => {});\ntest('b', () => {});\ntest.run();\n`;
/** A file whose one test fails. */
export const failingTest = `test('c', () => assert.is(1, 2));\ntest.run();\n`;

/** Writes each fixture (uvu and its assert imported) to a new directory, runs `node ...args <dir> -c false` in the root, removes the directory. */
export function runFixtures(files: Record<string, string>, args: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const dir = mkdtempSync(join(tmpdir(), 'uvu-fixtures-'));
  try {
    for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), imports + body);
    const run = spawnSync(process.execPath, [...args, dir, '-c', 'false'], { cwd: root, encoding: 'utf8', timeout: 60_000, env });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
