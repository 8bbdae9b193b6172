// scripts/uvu-parallel.ts, which `npm test` runs: test files in parallel worker processes, one
// summary `.ci/run` sums, and uvu-strict's protection (a before hook that throws fails the run).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { uvuTotals } from '../scripts/uvu-totals.js';
import { failingHook, failingTest, passing, runFixtures as runWith } from './helpers/uvu-fixtures.js';

/** Runs the fixtures through the parallel runner (two workers, no database). */
const runFixtures = (files: Record<string, string>, env: Record<string, string> = {}) =>
  runWith(files, ['--import', 'tsx', 'scripts/uvu-parallel.ts', '-r', 'tsx'], {
    ...process.env,
    DATABASE_URL: '',
    TEST_WORKERS: '2',
    ...env,
  });

/**
 * Leaves a mark, then waits for `other`'s: only files running at the same time meet (run one after
 * the other, the first would wait in vain and fail).
 */
const meet = (name: string, other: string) => `import { existsSync, writeFileSync } from 'node:fs';
test('meets ${other}', async () => {
  writeFileSync(process.env.MARKS + '/${name}', '');
  for (let i = 0; i < 300 && !existsSync(process.env.MARKS + '/${other}'); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(existsSync(process.env.MARKS + '/${other}'), 'ran alongside ${other}');
});
test.run();
`;

test('passing files: one summary summing every file, exit 0, files running at the same time', () => {
  const marks = mkdtempSync(join(tmpdir(), 'uvu-parallel-marks-'));
  try {
    const run = runFixtures(
      { 'a.test.ts': passing, 'b.test.ts': meet('b', 'c'), 'c.test.ts': meet('c', 'b'), 'd.test.ts': passing },
      { MARKS: marks },
    );
    assert.is(run.code, 0, run.stdout + run.stderr);
    assert.equal(uvuTotals(run.stdout), { total: 4, passed: 4, skipped: 2 });
    assert.is([...run.stdout.matchAll(/^\s*Total:/gm)].length, 1, 'one Total line, so .ci/run counts each test once');
  } finally {
    rmSync(marks, { recursive: true, force: true });
  }
});

test('a run told to stop (SIGTERM, as Ctrl-C or a CI timeout sends) starts no further file and fails', () => {
  // The file signals the runner (its worker's parent) while it runs; with one worker, b and c come after it.
  const stopper = `test('stops the run', async () => {
  process.kill(process.ppid, 'SIGTERM');
  await new Promise((r) => setTimeout(r, 5_000));
});
test.run();
`;
  const run = runFixtures({ 'a.test.ts': stopper, 'b.test.ts': passing, 'c.test.ts': passing }, { TEST_WORKERS: '1' });
  assert.is(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stderr, /b\.test\.ts: never ran/);
  assert.match(run.stderr, /c\.test\.ts: never ran/);
});

test('a failing test fails the run and names its file', () => {
  const run = runFixtures({ 'a.test.ts': passing, 'b.test.ts': failingTest });
  assert.is(run.code, 1);
  assert.equal(uvuTotals(run.stdout), { total: 2, passed: 1, skipped: 1 });
  assert.match(run.stderr, /b\.test\.ts: uvu exited with code 1/);
});

test("a before hook that throws (uvu 0.5 exits 0) fails the run, as uvu-strict's does", () => {
  const run = runFixtures({ 'a.test.ts': passing, 'b.test.ts': failingHook });
  assert.is(run.code, 1);
  assert.match(run.stderr, /b\.test\.ts: 2 of 2 test\(s\) neither passed nor failed/);
});

test('a file that kills its worker fails the run; the other files still run', () => {
  const crash = `test('x', () => { process.exit(3); });\ntest.run();\n`;
  const run = runFixtures({ 'a.test.ts': crash, 'b.test.ts': passing, 'c.test.ts': passing, 'd.test.ts': passing });
  assert.is(run.code, 1);
  assert.match(run.stderr, /a\.test\.ts: uvu exited with code 3/);
  assert.equal(uvuTotals(run.stdout), { total: 3, passed: 3, skipped: 3 });
});

test.run();
