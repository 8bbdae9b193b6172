import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../src/index.js';
import { createPostgresDatabase } from '../src/pg.js';
import { createPGliteDatabase } from '../src/pglite.js';
import { listPets } from '../src/storage/pets.js';
import { ownPGlite, resetDatabase, sharedPGlite } from './helpers/db.js';
import { KEY } from './helpers/harness.js';
import { postgresTest } from './helpers/postgres-test.js';

test('PGlite: a transaction that rolls back while another request inserts loses nothing and mixes nothing', async () => {
  const db = await sharedPGlite();
  await resetDatabase(db);
  const store = createPetStore({ db, keys: [KEY] });
  let releaseTx!: () => void;
  const hold = new Promise<void>((r) => (releaseTx = r));
  const tx = db
    .transaction()
    .execute(async (trx) => {
      await trx.insertInto('petstore_pets').values({ name: 'rolled-back', category_id: 1n, status: 'sold' }).execute();
      await hold;
      throw new Error('roll back');
    })
    .catch((e: Error) => e.message);
  const creates = Array.from({ length: 5 }, (_, i) =>
    store.fetch(
      new Request('http://x/v1/pets', {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `kept${i}`, categoryId: 1 }),
      }),
    ),
  );
  await new Promise((r) => setTimeout(r, 50));
  releaseTx();
  assert.is(await tx, 'roll back');
  const statuses = (await Promise.all(creates)).map((r) => r.status);
  assert.equal(statuses, [201, 201, 201, 201, 201]);
  const { items } = await listPets({ kysely: db }, { limit: 100 });
  assert.equal(items.map((p) => p.name).sort(), ['kept0', 'kept1', 'kept2', 'kept3', 'kept4']);
});

test('PGlite passed in by the caller stays open after db.destroy(); one we create is closed', async () => {
  const pglite = await ownPGlite();
  const db = await createPGliteDatabase({ pglite });
  await db.destroy();
  assert.is(pglite.closed, false);
  assert.equal((await pglite.query<{ n: number }>('select count(*)::int as n from petstore_pets')).rows, [{ n: 0 }]);
  await pglite.close();
});

test('a PGlite we create is closed by db.destroy() even if never queried ({ migrate: false })', async () => {
  // Kysely's destroy() closes only a driver it has opened; without a query the PGlite stayed open.
  // Kept to be restored below, and called with the instance as `this`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const close = PGlite.prototype.close;
  let closed = 0;
  PGlite.prototype.close = function (this: PGlite) {
    closed++;
    return close.call(this);
  };
  try {
    const db = await createPGliteDatabase({ migrate: false });
    await db.destroy();
  } finally {
    PGlite.prototype.close = close;
  }
  assert.ok(closed > 0, 'the PGlite was closed');
});

test("a PGlite passed in with a lossy int8 parser of the caller's still answers exact ids past 2^53", async () => {
  const pglite = await ownPGlite({ parsers: { 20: (v: string) => Number(v) } }); // the caller's choice: int8 as a JS number
  const db = await createPGliteDatabase({ pglite });
  await db
    .insertInto('petstore_pets')
    .values({ id: 9007199254740993n, name: 'big', category_id: -9223372036854775808n, status: 'sold' })
    .execute();
  assert.is(
    (await pglite.query<{ id: unknown }>('select id from petstore_pets')).rows[0]!.id,
    9007199254740992,
    "the caller's parser rounds",
  );
  const store = createPetStore({ db, keys: [KEY] });
  const response = await store.fetch(new Request('http://x/v1/pets', { headers: { authorization: `Bearer ${KEY}` } }));
  assert.is(await response.text(), '[{"id":9007199254740993,"name":"big","categoryId":-9223372036854775808,"status":"sold"}]');
  await db.destroy();
  await pglite.close();
});

test('createPGliteDatabase refuses both pglite and dataDir', async () => {
  try {
    await createPGliteDatabase({ pglite: {} as PGlite, dataDir: '/tmp/x' });
    assert.unreachable();
  } catch (e) {
    assert.instance(e, TypeError);
  }
});

postgresTest(test, 'PostgreSQL: a Pool passed in keeps its own parsers and stays open; ids are still exact', async (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const db = await createPostgresDatabase(pool);
  await resetDatabase(db);
  await db
    .insertInto('petstore_pets')
    .values({ id: 9223372036854775807n, name: 'max', category_id: 9007199254740993n, status: 'sold' })
    .execute();
  const { items } = await listPets({ kysely: db }, { limit: 10 });
  // The repository reads int8 as PostgreSQL's decimal text, whatever the pool's parsers.
  assert.equal(items, [{ id: '9223372036854775807', name: 'max', categoryId: '9007199254740993', status: 'sold' }]);
  const raw = await pool.query('select id from petstore_pets');
  assert.is(raw.rows[0].id, '9223372036854775807', "the caller's pool keeps pg's default (string) int8 parser");
  assert.is((await pool.query('select 20::int8 as n')).rows[0].n, '20', "pg's global parsers are untouched");
  await db.destroy();
  assert.is((await pool.query('select 1 as one')).rows[0].one, 1, 'the pool is still usable after db.destroy()');
  await resetDatabase(await createPostgresDatabase(pool));
  await pool.end();
});

test.run();
