// A database the store cannot serve from is answered 503 with an Error body that says why and
// what to do (issue 24 items 4 and 5), on PGlite and on PostgreSQL:
// - not migrated (no tables, or the store's schema missing): `database_not_migrated`, how to
//   migrate, Retry-After; health says `fail` with the same words;
// - closed under the store (db.destroy(), a test store's close()): `database_closed`, and nothing
//   written on stderr (it is shut down, not failing).
import { type Kysely, sql } from 'kysely';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type Database, type PetStore, createPetStore, migrate } from '../src/index.js';
import { createPostgresDatabase } from '../src/pg.js';
import { createPGliteDatabase } from '../src/pglite.js';
import { createTestStore } from '../src/testing.js';
import { postgresTest } from './helpers/postgres-test.js';

const test = suite('database not migrated or closed');
const KEY = 'k';
const quiet = { onError: () => {} }; // the default logs each not-migrated 503 (an operator must act)
const pets = (store: PetStore) => store.fetch(new Request('http://x/v1/pets', { headers: { authorization: `Bearer ${KEY}` } }));
const health = (store: PetStore) => store.fetch(new Request('http://x/v1/health'));

async function assertNotMigrated(store: PetStore): Promise<void> {
  const res = await pets(store);
  assert.is(res.status, 503);
  assert.is(res.headers.get('retry-after'), '5');
  const body = (await res.json()) as { code: string; message: string; status: number };
  assert.is(body.code, 'database_not_migrated');
  assert.is(body.status, 503);
  assert.match(body.message, 'the database is not migrated');
  assert.match(body.message, '`petstore-router migrate --database URL`');
  assert.match(body.message, '`await migrate(db)`');
  const h = await health(store);
  assert.is(h.status, 503);
  const report = (await h.json()) as { status: string; output: string };
  assert.is(report.status, 'fail');
  assert.is(report.output, body.message);
}

/** Runs `fn` with stderr (and console.error) captured; returns what was written. */
async function stderrOf(fn: () => Promise<void>): Promise<string> {
  const written: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  const error = console.error;
  process.stderr.write = (chunk: string | Uint8Array) => (written.push(String(chunk)), true);
  console.error = (...args: unknown[]) => void written.push(args.map(String).join(' '));
  try {
    await fn();
  } finally {
    process.stderr.write = write;
    console.error = error;
  }
  return written.join('');
}

async function assertClosed(store: PetStore): Promise<void> {
  const stderr = await stderrOf(async () => {
    for (const res of [await pets(store), await pets(store)]) {
      assert.is(res.status, 503);
      const body = (await res.json()) as { code: string; message: string };
      assert.is(body.code, 'database_closed');
      assert.match(body.message, "this store's database has been closed");
    }
    const h = await health(store);
    assert.is(h.status, 503);
    assert.is(((await h.json()) as { status: string }).status, 'fail');
  });
  assert.is(stderr, '', 'nothing on stderr');
}

test('PGlite never migrated: 503 database_not_migrated, health fail; after migrate(db) it serves', async () => {
  const db = await createPGliteDatabase({ migrate: false });
  try {
    const store = createPetStore({ db, keys: [KEY], ...quiet });
    await assertNotMigrated(store);
    await assertNotMigrated(createPetStore({ db, keys: [KEY], schema: 'not_there', ...quiet })); // a schema never migrated
    await migrate(db);
    assert.is((await pets(store)).status, 200);
    assert.is((await health(store)).status, 200);
    await db.destroy();
    await assertClosed(store);
  } finally {
    await db.destroy();
  }
});

test('a test store after close(): 503 database_closed, nothing on stderr', async () => {
  const testStore = await createTestStore({ keys: [KEY] });
  assert.is((await pets(testStore.store)).status, 200);
  await testStore.close();
  await assertClosed(testStore.store);
});

test('onError still hears of a closed database (only the default logger keeps quiet)', async () => {
  const seen: unknown[] = [];
  const testStore = await createTestStore({ keys: [KEY], onError: (error) => seen.push(error) });
  await testStore.close();
  assert.is((await pets(testStore.store)).status, 503);
  assert.is(seen.length, 1);
});

postgresTest(test, 'PostgreSQL: an empty schema and a missing one are not migrated; a destroyed db is closed', async (url) => {
  const db: Kysely<Database> = await createPostgresDatabase(url, { migrate: false });
  const schema = `edge_unmigrated_${process.pid}`;
  try {
    await sql`create schema ${sql.id(schema)}`.execute(db);
    await assertNotMigrated(createPetStore({ db, keys: [KEY], schema, ...quiet }));
    await assertNotMigrated(createPetStore({ db, keys: [KEY], schema: `${schema}_missing`, ...quiet }));
    await migrate(db, { schema });
    const store = createPetStore({ db, keys: [KEY], schema });
    assert.is((await pets(store)).status, 200);
    assert.is((await health(store)).status, 200);
    await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
    await db.destroy();
    await assertClosed(store);
  } finally {
    await db.destroy();
    const cleanup = await createPostgresDatabase(url, { migrate: false });
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(cleanup);
    await cleanup.destroy();
  }
});

test.run();
