// The server-side bound of the store's writes (src/drivers/pg/server-bound.ts): PostgreSQL itself
// ends a create stuck past the statement timeout, so the 503 it causes means nothing was stored,
// directly (the session's setting, session-bound.ts) and through PgBouncer in transaction mode (a
// `SET LOCAL` per write): the two forms, side by side; values reach the table exactly.
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyDatabaseError } from '../src/drivers/classify.js';
import { contractOf } from '../src/drivers/database.js';
import { createPostgresDatabase } from '../src/pg.js';
import type { Database } from '../src/storage/database.js';
import { insertPet, insertPets } from '../src/storage/pets.js';
import type { Executor } from '../src/storage/statement.js';
import { pgbouncerUrl } from './helpers/db.js';
import { databaseUrl } from './helpers/postgres-test.js';

const url = databaseUrl();
/** Each target, and the statement timeout a statement of the store's pool runs under outside its writes. */
const targets = [
  ['PostgreSQL', url, '1s', true],
  ['PostgreSQL, sessionStatementTimeout: false', url, '0', false],
  ['PgBouncer (transaction mode)', url && pgbouncerUrl(), '0', true],
] as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Another session holds the row of the id the next create draws (begin; insert that id; ...):
 * the create waits on it. Resolves once the lock is held; `release()` rolls it back.
 */
async function holdNextId(direct: string): Promise<{ release(): Promise<void> }> {
  const holder = new pg.Client(direct);
  await holder.connect();
  await holder.query('begin');
  const { rows } = await holder.query<{ id: string }>(`select nextval(pg_get_serial_sequence('petstore_pets', 'id'))::text as id`);
  await holder.query(`insert into petstore_pets (id, name, category_id) values ($1::bigint + 1, 'holder', 0)`, [rows[0]!.id]);
  return {
    async release() {
      await holder.query('rollback');
      await holder.end();
    },
  };
}

const stored = async (db: Kysely<Database>, name: string) =>
  Number((await sql<{ n: string }>`select count(*)::text as n from petstore_pets where name = ${name}`.execute(db)).rows[0]!.n);

for (const [where, target, session, sessionStatementTimeout] of targets) {
  if (!target) {
    test.skip(`${where}: a create stuck on a row lock past the timeout (URL unset)`);
    continue;
  }
  for (const [what, send] of [
    ['one create', (on: Executor, name: string) => insertPet(on, { name, categoryId: 1n })],
    [
      'a batch of creates',
      (on: Executor, name: string) =>
        insertPets(
          on,
          [1, 2, 3].map(() => ({ name, categoryId: 1n })),
        ),
    ],
  ] as const) {
    test(`${where}: ${what} stuck on a row lock past the statement timeout is ended by the server (timeout, stored 'no') and stays unstored after the lock goes`, async () => {
      const db = await createPostgresDatabase({ connectionString: target, statement_timeout: 1_000, max: 2 }, { sessionStatementTimeout });
      const on = { kysely: db, runner: contractOf(db).statements };
      const name = `stuck-${what.length}-${Date.now()}`;
      const lock = await holdNextId(url!);
      try {
        const error = await send(on, name).then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.equal(classifyDatabaseError(error), { kind: 'timeout', stored: 'no' }, String(error));
        assert.is((error as { code?: string }).code, '57014', 'PostgreSQL itself ended it (query_canceled)');
      } finally {
        await lock.release();
      }
      try {
        await sleep(500); // a statement still waiting on the lock would commit now
        assert.is(await stored(db, name), 0, 'nothing of the timed-out create was stored');
        const after = await insertPet(on, { name: `${name}-after`, categoryId: 2n });
        assert.is(after.name, `${name}-after`, 'the pool serves on');
        assert.equal(
          (await sql<{ t: string }>`select current_setting('statement_timeout') as t`.execute(db)).rows[0]!.t,
          session,
          session === '0'
            ? 'the bound was local to the write: nothing stays on a backend the pooler lends next'
            : 'the session runs under the bound',
        );
      } finally {
        await sql`delete from petstore_pets where name like ${`${name}%`}`.execute(db);
        await db.destroy();
      }
    });
  }

  test(`${where}: names with quotes, backslashes and unicode are stored exactly by the bounded writes`, async () => {
    const db = await createPostgresDatabase({ connectionString: target, statement_timeout: 5_000, max: 2 }, { sessionStatementTimeout });
    const on = { kysely: db, runner: contractOf(db).statements };
    const names = [`it's`, 'back\\slash', `\\'; drop table petstore_pets; --`, '$1 $2', 'snow ☃ \u{1F600}', ''];
    try {
      for (const name of names) assert.is((await insertPet(on, { name, categoryId: 9007199254740993n, status: 'sold' })).name, name);
      const many = await insertPets(
        on,
        names.map((name) => ({ name, categoryId: 7n })),
      );
      assert.equal(
        many.map((p) => p.name),
        names,
      );
      const one = await insertPet(on, { name: 'big', categoryId: 9007199254740993n });
      assert.is(one.categoryId, '9007199254740993');
    } finally {
      await sql`delete from petstore_pets where category_id in (7, 9007199254740993)`.execute(db);
      await db.destroy();
    }
  });
}

test.run();
