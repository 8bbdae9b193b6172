import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { unfinishedSuites, uvuFailure, uvuTotals } from '../scripts/uvu-totals.js';
import { failingHook, failingTest, passing, root, runFixtures as runWith } from './helpers/uvu-fixtures.js';

/**
 * scripts/uvu-strict.ts, which `npm test` and `npm run test:reliability` run uvu through: a suite
 * whose `before` hook throws must fail the run (uvu 0.5 alone exits 0), with uvu's own report
 * (read by .ci/run) unchanged.
 */
const uvuBin = join(dirname(createRequire(import.meta.url).resolve('uvu/run')), '..', 'bin.js');

/** Runs the fixtures through uvu-strict, or through uvu's own CLI. */
const runFixtures = (files: Record<string, string>, strict: boolean) =>
  runWith(files, strict ? ['--import', 'tsx', 'scripts/uvu-strict.ts', '-r', 'tsx'] : [uvuBin, '-r', 'tsx']);

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
