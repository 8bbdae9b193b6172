/**
 * Reads uvu 0.5's report. uvu counts a test in `Total` when its suite runs, in `Passed` when it
 * passed, and sets a failing exit code when one failed; tests skipped with `test.skip` are only
 * in `Skipped`. An error thrown by a suite's `before` hook is swallowed (uvu returns from a
 * `finally`): the suite's tests are in `Total` but neither passed nor failed, and uvu exits 0.
 */

/** Starts the line a worker of scripts/uvu-parallel.ts writes after each file's report. */
export const FILE_DONE = '\u0000uvu-parallel file done';

export interface UvuTotals {
  total: number;
  passed: number;
  skipped: number;
}

/** A suite whose tests did not all pass or fail: `(passed / total)` with `failed` ✘ marks. */
export interface UnfinishedSuite {
  /** The test file the suite is in, as uvu printed it; '' when it printed none before it. */
  file: string;
  /** The suite's progress line (its name, its marks, `(passed / total)`). */
  line: string;
  passed: number;
  failed: number;
  total: number;
}

/** The last `Total:`, `Passed:` and `Skipped:` lines of uvu's output; undefined if one is missing. */
export function uvuTotals(output: string): UvuTotals | undefined {
  const last = (label: string) => {
    const all = [...output.matchAll(new RegExp(`^\\s*${label}:\\s+(\\d+)\\s*$`, 'gm'))];
    const match = all[all.length - 1];
    return match ? Number(match[1]) : undefined;
  };
  const total = last('Total');
  const passed = last('Passed');
  const skipped = last('Skipped');
  if (total === undefined || passed === undefined || skipped === undefined) return undefined;
  return { total, passed, skipped };
}

/**
 * The suites that ran fewer tests than they hold: for each `(passed / total)` progress mark, the
 * ✘ marks written since the previous one are its failures. Test output between the marks is
 * skipped over, so a suite that logs is still read right.
 */
export function unfinishedSuites(output: string): UnfinishedSuite[] {
  const unfinished: UnfinishedSuite[] = [];
  let file = '';
  let failed = 0;
  for (const line of output.split('\n')) {
    if (/^[\w.@/\\-]+\.[cm]?[jt]sx?$/.test(line.trim()) && !line.startsWith(' ')) {
      file = line.trim();
      failed = 0;
      continue;
    }
    failed += line.split('✘').length - 1;
    const progress = /\((\d+) \/ (\d+)\)\s*$/.exec(line);
    if (!progress) continue;
    const passed = Number(progress[1]);
    const total = Number(progress[2]);
    if (passed + failed < total) unfinished.push({ file, line: line.trim(), passed, failed, total });
    failed = 0;
  }
  return unfinished;
}

/**
 * Why a uvu run whose process exited with `exitCode` must count as failed, or undefined when it
 * passed: a failing exit code, no totals (uvu crashed or never finished), or tests that neither
 * passed nor failed.
 */
export function uvuFailure(output: string, exitCode: number): string | undefined {
  if (exitCode !== 0) return `uvu exited with code ${exitCode}`;
  const totals = uvuTotals(output);
  if (!totals) return 'uvu printed no Total/Passed/Skipped: the run did not finish';
  if (totals.passed >= totals.total) return undefined;
  const missing = totals.total - totals.passed;
  const where = unfinishedSuites(output).map((s) => `\n  ${s.file || '(unknown file)'}: ${s.line}`);
  return (
    `${missing} of ${totals.total} test(s) neither passed nor failed: a suite's before hook threw ` +
    `(uvu 0.5 does not report that error) and its tests did not run${where.join('')}`
  );
}
