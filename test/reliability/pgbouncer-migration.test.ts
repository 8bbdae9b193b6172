import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../../src/index.js';
import { createPostgresDatabase } from '../../src/pg.js';
import { databaseUrl } from '../helpers/postgres-test.js';
import { sleep, within } from './helpers/load.js';
import { freshDatabase } from './helpers/postgres.js';

// A migration through a transaction-mode PgBouncer that times out on the client side: Kysely's
// migrator holds its advisory lock (`pg_advisory_lock`, a session lock, taken and released inside
// the migration's transaction) when the statement times out, and the client destroys that
// connection. PgBouncer then closes the server connection it was in a transaction on, so the
// session and its lock end: the next migration through the same pooler runs at once instead of
// waiting on a lock held by a backend nobody will use again.
const directUrl = databaseUrl();
const pgbouncer = process.env.PGBOUNCER_URL;
if (!pgbouncer && process.env.CI) throw new Error('PGBOUNCER_URL must be set in CI: the PgBouncer migration test may not be skipped');

const bouncerTest =
  directUrl && pgbouncer ? test : (name: string, _fn?: unknown) => test.skip(`${name} (DATABASE_URL / PGBOUNCER_URL unset)`);

/** Advisory locks held in the database `client` is connected to. */
async function advisoryLocks(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_locks
      where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
  );
  return rows[0]!.n;
}

/** A fresh database, its URL through PgBouncer, and a client connected to it directly (not through PgBouncer). */
async function freshBehindPgBouncer(
  label: string,
): Promise<{ fresh: Awaited<ReturnType<typeof freshDatabase>>; pooled: URL; direct: pg.Client }> {
  const fresh = await freshDatabase(directUrl!, label);
  const pooled = new URL(pgbouncer!);
  pooled.pathname = new URL(fresh.url).pathname;
  const direct = new pg.Client({ connectionString: fresh.url });
  await direct.connect();
  return { fresh, pooled, direct };
}

bouncerTest('a migration through PgBouncer that times out leaves no lock behind: the next one runs at once', async () => {
  const { fresh, pooled, direct: holder } = await freshBehindPgBouncer('bouncermigrate');
  try {
    // Migrated once directly: the bookkeeping tables exist, so the next migration reads them.
    await (await createPostgresDatabase(fresh.url)).destroy();

    // The migrator's read of its table waits on this lock, inside its transaction, which by then
    // holds the advisory migration lock: the statement times out after maxWaitMs.
    await holder.query('begin');
    await holder.query('lock table petstore_migration in access exclusive mode');
    // The database stays open (its pool too) while the lock is looked for: the timed-out
    // connection itself must be gone, not only the pool at its end.
    const blocked = await createPostgresDatabase(pooled.toString(), { maxWaitMs: 500, migrate: false });
    try {
      const failed = await within(
        migrate(blocked).then(
          () => 'migrated',
          (error: Error) => error.message,
        ),
        10_000,
        'the blocked migration',
      );
      // (Kysely reports the connection it discarded after the refused ROLLBACK, not the timeout.)
      assert.match(failed, /^petstore-router migration failed: /, failed);
      await holder.query('commit');

      // The backend of the timed-out transaction ends with the connection PgBouncer closes.
      let locks = await advisoryLocks(holder);
      for (let waited = 0; locks > 0 && waited < 3_000; waited += 100) {
        await sleep(100);
        locks = await advisoryLocks(holder);
      }
      assert.is(locks, 0, 'no advisory lock is left in the database');

      const started = performance.now();
      const again = await within(createPostgresDatabase(pooled.toString(), { maxWaitMs: 2_000 }), 10_000, 'the next migration');
      await again.destroy();
      assert.ok(performance.now() - started < 2_000, 'the next migration through PgBouncer does not wait on a lock');
    } finally {
      await blocked.destroy();
    }
  } finally {
    await holder.end();
    await fresh.drop();
  }
});

bouncerTest('migrations through PgBouncer under load leave no lock held on a pooled backend, and none waits on one', async () => {
  const { fresh, pooled, direct: observer } = await freshBehindPgBouncer('bouncerload');
  // Short transactions from 12 clients keep PgBouncer's backends busy, so the statements of one
  // migration are lent different backends unless they share a transaction.
  const load = new pg.Pool({ connectionString: pooled.toString(), max: 12 });
  let loading = true;
  const clients = Array.from({ length: 12 }, async () => {
    while (loading) await load.query('select pg_sleep(0.002)').catch(() => {});
  });
  const failures: string[] = [];
  try {
    for (let run = 0; run < 10; run++) {
      const outcome = await within(
        createPostgresDatabase(pooled.toString(), { maxWaitMs: 3_000 }).then(
          (db) => db.destroy().then(() => 'migrated'),
          (error: Error) => error.message,
        ),
        15_000,
        `migration ${run + 1}`,
      );
      const locks = await advisoryLocks(observer);
      if (outcome !== 'migrated' || locks > 0) failures.push(`migration ${run + 1}: ${outcome}, ${locks} advisory lock(s) left`);
    }
    assert.equal(failures, []);
  } finally {
    loading = false;
    await Promise.all(clients);
    await load.end();
    await observer.end();
    await fresh.drop();
  }
});

test.run();
