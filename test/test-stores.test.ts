// createTestStore's guarantees (issue 15): isolation (also 100 stores used concurrently), close()
// releasing its schema, seeding without HTTP. The cost figures are npm run bench's (test-stores).
import { sql } from 'kysely';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, migrate } from 'petstore-router';
import { type TestStore, createTestStore, seed } from 'petstore-router/testing';
import { CHECKPOINT_EVERY, buildSchema, freeSchemaCount, leaseSchema } from '../src/testing/schema-pool.js';

const test = suite('test stores');

const get = (t: TestStore, path: string) => t.fetch(new Request(`http://t/v1${path}`, { headers: { authorization: `Bearer ${t.key}` } }));
const post = (t: TestStore, name: string) =>
  t.fetch(
    new Request('http://t/v1/pets', {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
    }),
  );

test('a pet created in one store is invisible to every other store', async () => {
  const [a, b] = await Promise.all([createTestStore(), createTestStore()]);
  try {
    assert.is.not(a.schema, b.schema);
    assert.is((await post(a, 'only in a')).status, 201);
    assert.is(await (await get(a, '/pets')).text().then((t) => JSON.parse(t).length), 1);
    assert.is(await (await get(b, '/pets')).text(), '[]');
    assert.is((await get(b, '/pets/1')).status, 404);
    const c = await createTestStore(); // made after the write: still empty
    assert.is(await (await get(c, '/pets')).text(), '[]');
    await c.close();
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('100 stores alive and used concurrently: each sees exactly its own pets, ids from 1', async () => {
  const stores = await Promise.all(Array.from({ length: 100 }, () => createTestStore()));
  try {
    assert.is(new Set(stores.map((s) => s.schema)).size, 100);
    await Promise.all(
      stores.map(async (s, i) => {
        for (let k = 0; k <= i % 3; k++) assert.is((await post(s, `pet-${i}-${k}`)).status, 201);
      }),
    );
    await Promise.all(
      stores.map(async (s, i) => {
        const pets = JSON.parse(await (await get(s, '/pets')).text()) as { id: number; name: string }[];
        assert.equal(
          pets.map((p) => p.name),
          Array.from({ length: (i % 3) + 1 }, (_, k) => `pet-${i}-${k}`),
          `store ${i}`,
        );
        assert.equal(
          pets.map((p) => p.id),
          Array.from({ length: (i % 3) + 1 }, (_, k) => k + 1),
          `store ${i} ids`,
        );
      }),
    );
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
  // Every closed schema is kept, emptied: the next 100 stores at once build no new schema, and
  // each is as empty as a new one.
  assert.ok((await freeSchemaCount()) >= 100);
  const again = await Promise.all(Array.from({ length: 100 }, () => createTestStore()));
  try {
    const first = new Set(stores.map((s) => s.schema));
    assert.equal(
      again.filter((s) => !first.has(s.schema)).map((s) => s.schema),
      [],
      'new schemas were built',
    );
    await Promise.all(again.map(async (s) => assert.match(await (await post(s, 'again')).text(), /^\{"id":1,/)));
  } finally {
    await Promise.all(again.map((s) => s.close()));
  }
});

test('close() releases: the schema is emptied and reused, the closed store answers nothing', async () => {
  const a = await createTestStore({ onError: () => {} });
  await post(a, 'old');
  await a.seed({ orders: [{ petId: 1n, quantity: 1 }] });
  const { schema, db } = a;
  await a.close();
  await a.close(); // idempotent
  // The schema is empty again, tables and all: nothing of the closed store remains.
  const next = await createTestStore();
  try {
    assert.is(next.schema, schema, 'a free schema is reused');
    for (const table of ['petstore_pets', 'petstore_orders', 'petstore_idempotency_keys']) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(schema, table)}`.execute(next.db);
      assert.is(rows[0]!.n, 0, table);
    }
    assert.match(await (await post(next, 'new')).text(), /^\{"id":1,/);
    // A late request of the closed store never reaches the schema now in use by `next`.
    const late = await a.fetch(new Request('http://t/v1/pets', { headers: { authorization: `Bearer ${a.key}` } }));
    assert.is(late.status, 503); // the database is gone for it: 503, as for any unreachable database
    try {
      await db.selectFrom('petstore_pets').selectAll().execute();
      assert.unreachable("a closed store's db answered");
    } catch (error) {
      assert.instance(error, Error);
      assert.not.match((error as Error).message, /unreachable/);
    }
    assert.is(JSON.parse(await (await get(next, '/pets')).text()).length, 1);
  } finally {
    await next.close();
  }
});

test('seed: pets and orders without HTTP, int64 exact, the id sequence moved past explicit ids', async () => {
  const t = await createTestStore();
  try {
    const big = 2n ** 62n + 3n;
    const { pets } = await t.seed({
      pets: [
        { name: 'Rex', categoryId: big },
        { id: '9007199254740993', name: 'Past 2^53', categoryId: 7, status: 'sold' },
      ],
    });
    assert.equal(pets, [
      { id: 1n, name: 'Rex', categoryId: big, status: 'available' },
      { id: 9007199254740993n, name: 'Past 2^53', categoryId: 7n, status: 'sold' },
    ]);
    const { orders } = await seed(t.db, {
      orders: [{ petId: pets[1]!.id, quantity: 2, status: 'approved', shipDate: new Date('2026-01-02T00:00:00Z') }],
    });
    assert.equal(orders, [
      { id: 1n, petId: 9007199254740993n, quantity: 2, status: 'approved', complete: false, shipDate: new Date('2026-01-02T00:00:00Z') },
    ]);
    // Through the API: exact ids, and the next POST gets the id after the largest one.
    assert.match(await (await get(t, '/pets/9007199254740993')).text(), /"id":9007199254740993,/);
    assert.match(await (await get(t, '/pets/1')).text(), new RegExp(`"categoryId":${big},`));
    assert.match(await (await post(t, 'next')).text(), /^\{"id":9007199254740994,/);
  } finally {
    await t.close();
  }
});

test('seed refuses what it cannot store exactly, and inserts nothing then', async () => {
  const t = await createTestStore();
  try {
    for (const bad of [2 ** 53 + 2, 1.5, '12x', 2n ** 63n]) {
      try {
        await t.seed({
          pets: [
            { name: 'ok', categoryId: 1 },
            { name: 'bad', categoryId: bad },
          ],
        });
        assert.unreachable(`accepted ${String(bad)}`);
      } catch (error) {
        assert.instance(error, ApiError, String(bad));
        assert.equal(
          (error as ApiError).details?.map((d) => d.path),
          ['pets.1.categoryId'],
        );
      }
    }
    try {
      await t.seed({ pets: [{ name: 'a', categoryId: 1 }], orders: [{ petId: 999, quantity: 1 }] }); // unknown pet: one transaction
      assert.unreachable('an order of an unknown pet was seeded');
    } catch (error) {
      assert.not.match((error as Error).message, /unreachable/);
    }
    assert.is(await (await get(t, '/pets')).text(), '[]');
  } finally {
    await t.close();
  }
});

test('a test schema (built from one text of the migrations) has exactly the catalog of migrate(db, { schema })', async () => {
  const t = await createTestStore();
  const plain = `petstore_plain_${process.pid}`;
  try {
    await migrate(t.db, { schema: plain }); // the plain path, on the same PGlite
    const catalog = async (schema: string) => {
      const columns = await sql<Record<string, unknown>>`
        select table_name, column_name, ordinal_position, data_type, is_nullable, column_default, is_identity, identity_generation
        from information_schema.columns where table_schema = ${schema} and table_name not like 'petstore_migration%'
        order by table_name, ordinal_position`.execute(t.db);
      const indexes = await sql<Record<string, unknown>>`
        select tablename, indexname, replace(indexdef, ${schema}, 'S') as def from pg_indexes
        where schemaname = ${schema} and tablename not like 'petstore_migration%' order by indexname`.execute(t.db);
      const constraints = await sql<Record<string, unknown>>`
        select c.conrelid::regclass::text like '%migration%' as bookkeeping, c.conname, replace(pg_get_constraintdef(c.oid), ${schema}, 'S') as def
        from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = ${schema} order by c.conname`.execute(t.db);
      // Every relation with its kind and persistence: tables, indexes, identity sequences, and
      // the rate-limits table UNLOGGED (migration 0003), which no column or index shows.
      const relations = await sql<Record<string, unknown>>`
        select c.relname, c.relkind, c.relpersistence from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relname not like 'petstore_migration%' order by c.relname`.execute(t.db);
      return {
        columns: columns.rows,
        indexes: indexes.rows,
        constraints: constraints.rows.filter((r) => !r.bookkeeping),
        relations: relations.rows,
      };
    };
    const [fast, reference] = await Promise.all([catalog(t.schema), catalog(plain)]);
    assert.ok(fast.columns.length >= 20 && fast.indexes.length >= 5 && fast.constraints.length >= 6, JSON.stringify(fast).slice(0, 200));
    assert.equal(
      fast.relations.find((r) => r.relname === 'petstore_rate_limits'),
      { relname: 'petstore_rate_limits', relkind: 'r', relpersistence: 'u' },
    );
    assert.equal(fast, reference);
  } finally {
    await sql`drop schema if exists ${sql.id(plain)} cascade`.execute(t.db);
    await t.close();
  }
});

test('a schema build that fails leaves nothing behind and the shared PGlite usable', async () => {
  const lease = await leaseSchema();
  try {
    // The name is taken: the text's first statement fails, and with it the whole text.
    try {
      await buildSchema(lease.pglite, lease.schema);
      assert.unreachable('built a schema over an existing one');
    } catch (error) {
      assert.match((error as Error).message, /already exists/);
    }
    // No transaction left open or aborted: the next statements run and commit on their own.
    const { rows } = await lease.pglite.query<{ n: number }>(`select count(*)::int as n from pg_namespace where nspname = $1`, [
      lease.schema,
    ]);
    assert.is(rows[0]!.n, 1);
    const t = await createTestStore();
    assert.is((await post(t, 'after a failed build')).status, 201);
    await t.close();
  } finally {
    await lease.release();
  }
});

test('the shared WAL stays bounded: at most 32 MB, a checkpoint within every CHECKPOINT_EVERY closes', async () => {
  const lease = await leaseSchema();
  try {
    const one = async <T>(text: string) => (await lease.pglite.query<T>(text)).rows[0]!;
    assert.equal(await one(`select current_setting('max_wal_size') as max, current_setting('min_wal_size') as min`), {
      max: '32MB',
      min: '32MB',
    });
    const redo = async () => (await one<{ redo: string }>('select redo_lsn::text as redo from pg_control_checkpoint()')).redo;
    const before = await redo();
    for (let i = 0; i < CHECKPOINT_EVERY; i++) await (await createTestStore()).close();
    assert.is.not(await redo(), before, 'no checkpoint ran');
  } finally {
    await lease.release();
  }
});

test.run();
