import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { databaseUrl } from '../helpers/postgres-test.js';
import { type Seen, assertHealthy, count, probeHealth, runLoad } from './helpers/clients.js';
import { onFreshDatabase } from './helpers/postgres.js';
import { holdNextRound, namesStoredTwice } from './helpers/row-lock.js';
import { startServer, stopGracefully } from './helpers/server.js';

// Issue 36, one stuck statement: against `serve` on PostgreSQL (and through PgBouncer in
// transaction mode), 40 create clients and 5 list loops, each client retrying its 503s as told
// (the same name again), while another session holds for 8 s the row of an id the next round of
// creates draws (begin; insert that id; sleep; rollback). Rates are compared within one run.

const directUrl = databaseUrl();
const pgbouncer = process.env.PGBOUNCER_URL;
if (!pgbouncer && process.env.CI) throw new Error('PGBOUNCER_URL must be set in CI: the PgBouncer case may not be skipped');

const RUN_S = 20;
const LOCK_FROM_S = 5;
const LOCK_S = 8;

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Answers counted in whole seconds [from, to) of a group's run (0 where none came). */
const seconds = (seen: Seen, from: number, to: number) => Array.from({ length: to - from }, (_, i) => seen.perSecond[from + i] ?? 0);

for (const [where, pooled] of [
  ['PostgreSQL', false],
  ['PgBouncer in front', true],
] as const) {
  const ready = directUrl && (!pooled || pgbouncer);
  if (!ready) {
    test.skip(`stuck statement, ${where} (DATABASE_URL / PGBOUNCER_URL unset)`);
    continue;
  }
  test(`stuck statement, ${where}: a row lock of 8 s on the next round's id costs at most one statement's creates; creates and lists go on; no name stored twice`, async () => {
    await onFreshDatabase(directUrl, pooled ? 'stuckpool' : 'stuck', async (db) => {
      let served = db;
      if (pooled) {
        const via = new URL(pgbouncer!);
        via.pathname = new URL(db).pathname;
        served = via.toString();
      }
      const server = await startServer(['--database', served]);
      const health = probeHealth(server.url);
      try {
        await runLoad([{ url: `${server.url}/pets`, method: 'POST', clients: 40, seconds: 2 }]); // warm up
        const startAt = Date.now() + 5_000; // the load process is up well before
        const lockAt = startAt + LOCK_FROM_S * 1_000;
        const [[creates, lists], lock] = await Promise.all([
          runLoad([
            { url: `${server.url}/pets`, method: 'POST', clients: 40, seconds: RUN_S, startAt, name: 'stuck' },
            { url: `${server.url}/pets?limit=20`, clients: 5, seconds: RUN_S, startAt },
          ]),
          holdNextRound(db, lockAt, LOCK_S),
        ]);
        // Whole seconds inside the lock against the unblocked rate: the median of the whole seconds
        // before it (the first one warms up) and after it, steadier than the four seconds before alone.
        const unblocked = (seen: Seen) => median([...seconds(seen, 1, LOCK_FROM_S), ...seconds(seen, LOCK_FROM_S + LOCK_S, RUN_S)]);
        const createsUnblocked = unblocked(creates!);
        const createsDuring = seconds(creates!, LOCK_FROM_S, LOCK_FROM_S + LOCK_S);
        const listsUnblocked = unblocked(lists!);
        const listsDuring = seconds(lists!, LOCK_FROM_S, LOCK_FROM_S + LOCK_S);
        const refused = count(creates!, 503);
        console.log(
          `${where}: locked id ${lock.id}; creates/s unblocked ${createsUnblocked.toFixed(0)}, during the lock ${createsDuring.join(',')}; ` +
            `lists/s unblocked ${listsUnblocked.toFixed(0)}, during ${listsDuring.join(',')}; creates answered 503: ${refused}`,
        );
        assert.equal(await namesStoredTwice(db), [], 'no name is stored twice after the clients retried their 503s');
        assert.ok(refused >= 1, 'the lock held up a statement (the test is not vacuous)');
        assert.ok(refused <= 64, `${refused} creates answered 503: more than one statement's worth`);
        assert.ok(
          mean(createsDuring) >= 0.5 * createsUnblocked,
          `creates during the lock ${mean(createsDuring).toFixed(0)}/s, unblocked ${createsUnblocked.toFixed(0)}/s`,
        );
        assert.ok(
          mean(listsDuring) >= 0.8 * listsUnblocked,
          `lists during the lock ${mean(listsDuring).toFixed(0)}/s, unblocked ${listsUnblocked.toFixed(0)}/s`,
        );
        for (const [i, n] of listsDuring.entries()) {
          assert.ok(n >= 0.8 * listsUnblocked, `lists in second ${LOCK_FROM_S + i}: ${n}, unblocked ${listsUnblocked.toFixed(0)}/s`);
        }
        assert.is(count(lists!, 503), 0, 'no list was refused');
      } finally {
        assertHealthy(await health.stop());
        await stopGracefully(server);
      }
    });
  });
}

test.run();
