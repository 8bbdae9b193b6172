// The pg driver's statements: which are named (only the store's own, by a hash of their text), that
// naming can be turned off, that a caller's Pool is left alone, and that PgBouncer in transaction
// mode with its default settings works with a plain URL (refused names fall back, no request fails;
// the statement timeout cancels on the server).
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresDatabase } from '../src/drivers/pg/index.js';
import type { Database } from '../src/storage/database.js';
import { findPet, insertPet, listPets } from '../src/storage/pets.js';
import { pgbouncerUrl } from './helpers/db.js';

const url = process.env.DATABASE_URL;
const pooledUrl = pgbouncerUrl();
if (!url && process.env.CI) throw new Error('DATABASE_URL must be set in CI');
/** A case that needs `ready`: registered as skipped (counted by uvu as such) when it is unset outside CI. */
const when = (ready: unknown, unset: string) => (ready ? test : (name: string, _fn?: unknown) => test.skip(`${name} (${unset} unset)`));
const pgTest = when(url, 'DATABASE_URL');
const bouncerTest = when(pooledUrl && url, 'PGBOUNCER_URL');

/** The names prepared on the connection that runs `work` (pg_prepared_statements is per session). */
async function namesAfter(db: Kysely<Database>, work: (conn: Kysely<Database>) => Promise<unknown>) {
  return db.connection().execute(async (conn) => {
    await sql`deallocate all`.execute(conn);
    await work(conn);
    const { rows } = await sql<{
      name: string;
      statement: string;
    }>`select name, statement from pg_prepared_statements order by name`.execute(conn);
    return rows;
  });
}

const storeWork = async (conn: Kysely<Database>) => {
  const pet = await insertPet(conn, { name: 'n', categoryId: 1n });
  await findPet(conn, BigInt(pet.id));
  await listPets(conn, { limit: 20, status: 'available' });
  await sql`select ${1}::int as caller_own`.execute(conn); // a caller's query with a parameter
};

pgTest("PostgreSQL: only the store's own statements are named, each by the SHA-256 of its text", async () => {
  const db = await createPostgresDatabase(url!);
  try {
    const named = await namesAfter(db, storeWork);
    assert.is(named.length, 3, JSON.stringify(named));
    for (const { name, statement } of named) {
      assert.is(name, `petstore_${createHash('sha256').update(statement).digest('hex').slice(0, 32)}`);
      assert.match(statement, /petstore_pets/);
    }
    // A caller's query of the very SQL text of one of ours (without our mark) is the caller's: not
    // named, and its rows come back as objects.
    const pet = await insertPet(db, { name: 'same-sql', categoryId: 1n });
    const ours = named.find((n) => n.statement.includes('where "id" = $1'))!.statement;
    const callers = await namesAfter(db, async (conn) => {
      const same = ours.replace('/* petstore-router */ ', '');
      const { rows } = await conn.executeQuery({ sql: same, parameters: [pet.id], query: undefined as never, queryId: undefined as never });
      assert.equal(rows, [{ id: pet.id, name: 'same-sql', categoryId: '1', status: 'available' }], 'object rows');
    });
    assert.equal(callers, [], "a caller's identical SQL is not named");
    // Inside a transaction nothing is named (a refused name there would abort the transaction).
    const inTransaction = await namesAfter(db, (conn) => conn.transaction().execute(storeWork));
    assert.is(inTransaction.length, 0);
  } finally {
    await db.destroy();
  }
});

pgTest("PostgreSQL: preparedStatements: false names nothing; a caller's own Pool is never named on", async () => {
  const off = await createPostgresDatabase(url!, { preparedStatements: false, migrate: false });
  const pool = new pg.Pool({ connectionString: url!, max: 2 });
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
            const db = pools[i % 2]!;
            try {
              if (i % 4 === 0) {
                const pet = await insertPet(db, { name: 'pooled', categoryId: 2n });
                assert.equal(await findPet(db, BigInt(pet.id)), pet);
              } else if (i % 4 === 1) await listPets(db, { limit: 20 });
              else if (i % 4 === 2) await listPets(db, { limit: 5, status: 'available', afterId: 0n });
              else await db.transaction().execute((trx) => insertPet(trx, { name: 'pooled', categoryId: 3n }));
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
  'PgBouncer: the statement timeout (1 s) cancels a slow statement on the server: 57014, and the server stops working on it',
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
      assert.is((error as { code?: string }).code, '57014', String(error));
      assert.ok(ms < 2_500, `cut after ${Math.round(ms)} ms`);
      const { rows } = await direct.query(
        `select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%pg_sleep(6)%' and pid <> pg_backend_pid()`,
      );
      assert.is(rows[0].n, 0, 'no backend still sleeps');
      const { rows: after } = await sql<{ one: number }>`select 1 as one`.execute(db);
      assert.is(after[0]!.one, 1, 'the connection works afterwards');
    } finally {
      await db.destroy();
      await direct.end();
    }
  },
);

test.run();
