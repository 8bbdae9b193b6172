// The pg driver's statement timeout (src/drivers/pg/timeout.ts): one timer per pool fails each
// statement that got no answer in time, at its own deadline, and never one that was answered.
// The whole path on PostgreSQL and PgBouncer: test/pg-statements.test.ts, test/reliability/postgres-pool.test.ts.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { StatementDeadlines, StatementTimeoutError, type TimedStatement, mustDestroy } from '../src/drivers/pg/timeout.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function statement(): TimedStatement & { failedAt: number | undefined; error: StatementTimeoutError | undefined } {
  return {
    sentAt: 0,
    failedAt: undefined,
    error: undefined,
    timedOut(error) {
      this.failedAt = performance.now();
      this.error = error;
    },
  };
}

test('a statement with no answer fails at its deadline with a StatementTimeoutError; an answered one never does', async () => {
  const deadlines = new StatementDeadlines(80);
  const slow = statement();
  const fast = statement();
  const started = performance.now();
  deadlines.started(slow);
  deadlines.started(fast);
  await sleep(10);
  deadlines.ended(fast);
  await sleep(200);
  assert.instance(slow.error, StatementTimeoutError);
  assert.ok(mustDestroy(slow.error), 'a timed-out connection is dropped');
  assert.match(slow.error!.message, /statement timeout: PostgreSQL did not answer within 80 ms/);
  const after = slow.failedAt! - started;
  assert.ok(after >= 79 && after < 180, `failed after ${after.toFixed(0)} ms (timeout 80 ms)`);
  assert.is(fast.error, undefined);
  deadlines.close();
});

test('statements started at different times each fail at their own deadline (one timer re-armed for the oldest)', async () => {
  const deadlines = new StatementDeadlines(60);
  const first = statement();
  const second = statement();
  const started = performance.now();
  deadlines.started(first);
  await sleep(40);
  deadlines.started(second);
  await sleep(35); // first is due (60 ms), second is not (at 35 of its 60 ms)
  assert.instance(first.error, StatementTimeoutError);
  assert.is(second.error, undefined, 'the later statement is not failed at the earlier deadline');
  await sleep(80);
  assert.instance(second.error, StatementTimeoutError);
  const gap = second.failedAt! - first.failedAt!;
  assert.ok(gap >= 30, `the second failed ${gap.toFixed(0)} ms after the first (started 40 ms later)`);
  assert.ok(second.failedAt! - started >= 99, 'not before its own deadline');
  deadlines.close();
});

test('close() stops the timer: nothing fails after it', async () => {
  const deadlines = new StatementDeadlines(30);
  const pending = statement();
  deadlines.started(pending);
  deadlines.close();
  await sleep(80);
  assert.is(pending.error, undefined);
});

test('an armed deadline does not keep the process alive: a process whose statements are done exits at once', () => {
  const code = `
    import { StatementDeadlines } from ${JSON.stringify(new URL('../src/drivers/pg/timeout.ts', import.meta.url).href)};
    const deadlines = new StatementDeadlines(60_000);
    const s = { sentAt: 0, timedOut() {} };
    deadlines.started(s);
    deadlines.ended(s);
  `;
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 30_000 });
  const ms = performance.now() - started;
  assert.is(run.status, 0, run.stderr);
  assert.ok(ms < 20_000, `exited after ${ms.toFixed(0)} ms with a 60 s deadline armed`);
});

test("pg's own query_timeout error (a caller's pool config) also drops the connection; other errors do not", () => {
  assert.ok(mustDestroy(new Error('Query read timeout')));
  assert.not.ok(mustDestroy(new Error('relation "pets" does not exist')));
});

test.run();
