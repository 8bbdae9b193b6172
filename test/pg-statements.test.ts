// The pg driver's statements: which are named (only the store's own, by a hash of their text), that
// naming can be turned off, that a caller's Pool is left alone, and that PgBouncer in transaction
// mode with its default settings works with a plain URL (refused names fall back, no request fails;
// the statement timeout fails the statement in time and the pool serves on).
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresDatabase } from '../src/pg.js';
import type { Database } from '../src/storage/database.js';
import { contractOf } from '../src/drivers/database.js';
import type { Executor } from '../src/storage/statement.js';
import { findPet, insertPet, listPets } from '../src/storage/pets.js';
import { pgbouncerUrl } from './helpers/db.js';
import { classifyDatabaseError } from '../src/drivers/classify.js';

const url = process.env.DATABASE_URL;
const pooledUrl = pgbouncerUrl();
if (!url && process.env.CI) throw new Error('DATABASE_URL must be set in CI');
/** A case that needs `ready`: registered as skipped (counted by uvu as such) when it is unset outside CI. */
const when = (ready: unknown, unset: string) => (ready ? test : (name: string, _fn?: unknown) => test.skip(`${name} (${unset} unset)`));
const pgTest = when(url, 'DATABASE_URL');
const bouncerTest = when(pooledUrl && url, 'PGBOUNCER_URL');

/**
 * The names prepared after `work` (pg_prepared_statements is per session: the databases here have
 * one connection, so every statement runs on it). `work` gets the store's view of the database:
 * the Kysely and the runner it carries.
 */
async function namesAfter(db: Kysely<Database>, work: (target: Executor) => Promise<unknown>) {
  await sql`deallocate all`.execute(db);
  await work({ kysely: db, runner: contractOf(db).statements });
  const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by name`.execute(
    db,
  );
  return rows;
}

const storeWork = async (target: Executor) => {
  const pet = await insertPet(target, { name: 'n', categoryId: 1n });
  await findPet(target, BigInt(pet.id));
  await listPets(target, { limit: 20, status: 'available' });
};

for (const [how, sessionStatementTimeout, byPrepare] of [
  ['the session under the bound: a create named like the rest', true, 0],
  ['sessionStatementTimeout: false: a create by SQL PREPARE after SET LOCAL', false, 1],
] as const) {
  pgTest(`PostgreSQL, ${how}: only the store's own statements are named, each by the SHA-256 of its text`, async () => {
    const db = await createPostgresDatabase({ connectionString: url!, max: 1 }, { sessionStatementTimeout });
    try {
      const named = await namesAfter(db, storeWork);
      assert.is(named.length, 3, JSON.stringify(named));
      for (const { name, statement } of named) {
        // A write prepared by SQL shows as the message that prepared it: SET LOCAL ...; PREPARE name AS <text>; EXECUTE ...
        const text = /PREPARE \S+ AS (.*); EXECUTE /s.exec(statement)?.[1] ?? statement;
        assert.is(name, `petstore_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`);
        assert.match(statement, /petstore_pets/);
      }
      assert.is(named.filter(({ statement }) => statement.includes('PREPARE ')).length, byPrepare, 'the create');
      // The same statements through Kysely (a plain Kysely, a transaction) are not named.
      assert.equal(await namesAfter(db, () => storeWork({ kysely: db })), []);
      assert.equal(await namesAfter(db, () => db.transaction().execute((trx) => storeWork({ kysely: trx }))), []);
    } finally {
      await db.destroy();
    }
  });
}

pgTest("PostgreSQL: preparedStatements: false names nothing; a caller's own Pool is never named on", async () => {
  const off = await createPostgresDatabase({ connectionString: url!, max: 1 }, { preparedStatements: false, migrate: false });
  const pool = new pg.Pool({ connectionString: url!, max: 1 });
  const borrowed = await createPostgresDatabase(pool, { migrate: false });
  try {
    assert.equal(await namesAfter(off, storeWork), []);
    assert.equal(await namesAfter(borrowed, storeWork), []);
    await sql`delete from petstore_pets where name = 'n'`.execute(off);
  } finally {
    await off.destroy();
    await borrowed.destroy();
    await pool.end();
  }
});

bouncerTest(
  'PgBouncer (transaction mode, default settings, plain URL): two pools x 40 concurrent mixed statements, none fails',
  async () => {
    // Two pools stand for two processes: the same names, prepared on backends PgBouncer shares.
    const pools = [await createPostgresDatabase(pooledUrl!), await createPostgresDatabase(pooledUrl!, { migrate: false })];
    try {
      const failures: string[] = [];
      for (let round = 0; round < 3; round++) {
        await Promise.all(
          Array.from({ length: 80 }, async (_, i) => {
            const kysely = pools[i % 2]!;
            const db = { kysely, runner: contractOf(kysely).statements };
            try {
              if (i % 4 === 0) {
                const pet = await insertPet(db, { name: 'pooled', categoryId: 2n });
                assert.equal(await findPet(db, BigInt(pet.id)), pet);
              } else if (i % 4 === 1) await listPets(db, { limit: 20 });
              else if (i % 4 === 2) await listPets(db, { limit: 5, status: 'available', afterId: 0n });
              else await kysely.transaction().execute((trx) => insertPet({ kysely: trx }, { name: 'pooled', categoryId: 3n }));
            } catch (error) {
              failures.push(String(error));
            }
          }),
        );
      }
      assert.equal(failures, []);
      await sql`delete from petstore_pets where name = 'pooled'`.execute(pools[0]!);
    } finally {
      for (const db of pools) await db.destroy();
    }
  },
);

bouncerTest(
  'PgBouncer: the statement timeout (1 s) fails a slow statement in time (503 class), its connection is dropped, the pool serves on',
  async () => {
    const db = await createPostgresDatabase({ connectionString: pooledUrl!, statement_timeout: 1_000 }, { migrate: false });
    const direct = new pg.Pool({ connectionString: url!, max: 1 });
    try {
      const marker = `slow_${process.pid}_${Date.now()}`;
      const started = performance.now();
      const error = await sql`select pg_sleep(6), ${marker}::text`.execute(db).then(
        () => undefined,
        (e: unknown) => e,
      );
      const ms = performance.now() - started;
      assert.ok(classifyDatabaseError(error) !== undefined, String(error));
      assert.ok(ms < 5_000, `cut after ${Math.round(ms)} ms, before pg_sleep(6) ended`);
      const { rows: after } = await sql<{ one: number }>`select 1 as one`.execute(db);
      assert.is(after[0]!.one, 1, 'the connection works afterwards');
    } finally {
      await db.destroy();
      await direct.end();
    }
  },
);

test.run();
