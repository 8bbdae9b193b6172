import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { unfinishedSuites, uvuFailure, uvuTotals } from '../scripts/uvu-totals.js';

/**
 * scripts/uvu-strict.ts, which `npm test` and `npm run test:reliability` run uvu through: a suite
 * whose `before` hook throws must fail the run (uvu 0.5 alone exits 0), with uvu's own report
 * (read by .ci/run) unchanged.
 */
const root = new URL('..', import.meta.url).pathname;
const uvuModule = createRequire(import.meta.url).resolve('uvu');
const assertModule = createRequire(import.meta.url).resolve('uvu/assert');

/** Writes each fixture as a test file of a temporary directory and runs uvu on it. */
function runFixtures(files: Record<string, string>, strict: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'uvu-strict-'));
  try {
    for (const [name, body] of Object.entries(files)) {
      const imports = `import { test } from ${JSON.stringify(uvuModule)};\nimport * as assert from ${JSON.stringify(assertModule)};\n`;
      writeFileSync(join(dir, name), imports + body);
    }
    const uvu = strict
      ? ['--import', 'tsx', 'scripts/uvu-strict.ts']
      : [join(dirname(createRequire(import.meta.url).resolve('uvu/run')), '..', 'bin.js')];
    const run = spawnSync(process.execPath, [...uvu, '-r', 'tsx', dir, '-c', 'false'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const passing = `test('one', () => assert.ok(true));\ntest.skip('two', () => {});\ntest.run();\n`;
const failingHook = `test.before(() => { throw new Error('no database'); });\ntest('a', () => {});\ntest('b', () => {});\ntest.run();\n`;
const failingTest = `test('c', () => assert.is(1, 2));\ntest.run();\n`;

test('uvu alone exits 0 when a before hook throws (the reason for the script)', () => {
  const run = runFixtures({ 'a.test.ts': passing, 'b.test.ts': failingHook }, false);
  assert.is(run.code, 0);
  assert.equal(uvuTotals(run.stdout), { total: 3, passed: 1, skipped: 1 });
});

test('through uvu-strict, a before hook that throws fails the run and names the file', () => {
  const run = runFixtures({ 'a.test.ts': passing, 'b.test.ts': failingHook }, true);
  assert.is(run.code, 1);
  assert.match(run.stdout, /^\s*Total:\s+3\s*$/m);
  assert.match(run.stdout, /^\s*Passed:\s+1\s*$/m);
  assert.match(run.stdout, /^\s*Skipped:\s+1\s*$/m);
  assert.match(run.stderr, /2 of 3 test\(s\) neither passed nor failed/);
  assert.match(run.stderr, /\n {2}b\.test\.ts: \(0 \/ 2\)/);
  assert.not.match(run.stderr, /a\.test\.ts/);
});

test('through uvu-strict, passing and skipped tests exit 0 and a failing test exits 1', () => {
  const ok = runFixtures({ 'a.test.ts': passing }, true);
  assert.is(ok.code, 0, ok.stderr);
  assert.equal(uvuTotals(ok.stdout), { total: 1, passed: 1, skipped: 1 });
  assert.is(ok.stderr, '');
  const failed = runFixtures({ 'a.test.ts': passing, 'c.test.ts': failingTest }, true);
  assert.is(failed.code, 1);
  assert.match(failed.stdout, /FAIL\s+"c"/);
});

test('the totals and the unfinished suites are read from the report', () => {
  const report = [
    'a.test.ts',
    '• • ✘   (2 / 3)',
    '',
    'b.test.ts',
    ' named suite  •   (1 / 1)',
    '  (log line from a test ✓)',
    ' other   (0 / 4)',
    '',
    '   FAIL  "x"',
    '',
    '  Total:     8',
    '  Passed:    3',
    '  Skipped:   2',
    '  Duration:  1.00ms',
  ].join('\n');
  assert.equal(uvuTotals(report), { total: 8, passed: 3, skipped: 2 });
  assert.equal(unfinishedSuites(report), [{ file: 'b.test.ts', line: 'other   (0 / 4)', passed: 0, failed: 0, total: 4 }]);
  assert.is(uvuFailure(report, 1), 'uvu exited with code 1');
  assert.match(uvuFailure(report, 0) ?? '', /5 of 8 test\(s\) neither passed nor failed/);
  assert.is(uvuFailure(report.replace('Passed:    3', 'Passed:    8'), 0), undefined);
  assert.match(uvuFailure('a.test.ts\n• (1 / 1)\n', 0) ?? '', /no Total/);
});

test('npm run test:reliability runs uvu through uvu-strict, npm test through uvu-parallel (the same check per file)', () => {
  const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
  assert.match(scripts['test:reliability']!, /^node --import tsx scripts\/uvu-strict\.ts -r tsx test\b/);
  assert.match(scripts.test!, /^node --import tsx scripts\/uvu-parallel\.ts -r tsx test\b/);
});

test.run();
