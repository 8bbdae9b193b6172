import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from 'petstore-router';
import { TEST_KEY, createTestDatabase, createTestStore, resetTestDatabase, testDatabaseSchema } from 'petstore-router/testing';

const root = join(import.meta.dirname, '..');
const test = suite('petstore-router/testing');

const createPet = (name: string, key = TEST_KEY) =>
  new Request('http://t/v1/pets', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });

test('a test database is migrated: our tables exist, empty, in its own schema', async () => {
  const db = await createTestDatabase();
  try {
    const schema = testDatabaseSchema(db)!;
    assert.match(schema, /^petstore_test_\d+$/);
    const tables = await sql<{
      table_name: string;
    }>`select table_name from information_schema.tables where table_schema = ${schema} order by 1`.execute(db);
    assert.equal(
      tables.rows.map((r) => r.table_name),
      ['petstore_idempotency_keys', 'petstore_orders', 'petstore_pets', 'petstore_rate_limits'],
    );
    const pets = await db.selectFrom('petstore_pets').select('id').execute();
    assert.equal(pets, []);
  } finally {
    await db.destroy();
  }
});

test('test databases are isolated, also when created concurrently', async () => {
  const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  try {
    await a.insertInto('petstore_pets').values({ name: 'only in a', category_id: 1n, status: 'available' }).execute();
    assert.is((await a.selectFrom('petstore_pets').select('name').execute()).length, 1);
    assert.equal(await b.selectFrom('petstore_pets').select('name').execute(), []);
    const c = await createTestDatabase(); // made after the write: still empty
    assert.equal(await c.selectFrom('petstore_pets').select('name').execute(), []);
    await c.destroy();
  } finally {
    await Promise.all([a.destroy(), b.destroy()]);
  }
});

test('int8 comes back as bigint, small and past 2^53', async () => {
  const db = await createTestDatabase();
  try {
    const big = 2n ** 62n + 1n;
    await db.insertInto('petstore_pets').values({ name: 'x', category_id: big, status: 'available' }).execute();
    const row = await db.selectFrom('petstore_pets').select(['id', 'category_id']).executeTakeFirstOrThrow();
    assert.is(row.id, 1n);
    assert.is(row.category_id, big);
  } finally {
    await db.destroy();
  }
});

test('resetTestDatabase makes a used database fresh again: no rows, ids from 1, every table', async () => {
  const db = await createTestDatabase();
  try {
    const store = createPetStore({ db, keys: [TEST_KEY] });
    for (const name of ['a', 'b']) assert.is((await store.fetch(createPet(name))).status, 201);
    const replayed = new Request(createPet('c'), { headers: { ...Object.fromEntries(createPet('c').headers), 'idempotency-key': 'k1' } });
    assert.is((await store.fetch(replayed)).status, 201);
    await db.insertInto('petstore_orders').values({ pet_id: 1n, quantity: 1, status: 'placed', ship_date: null }).execute();
    await resetTestDatabase(db);
    for (const table of ['petstore_pets', 'petstore_orders', 'petstore_idempotency_keys']) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(testDatabaseSchema(db)!, table)}`.execute(db);
      assert.is(rows[0]!.n, 0, table);
    }
    const again = createPetStore({ db, keys: [TEST_KEY] });
    assert.match(await (await again.fetch(createPet('fresh'))).text(), /^\{"id":1,/);
  } finally {
    await db.destroy();
  }
});

test('db.destroy() closes the database', async () => {
  const db = await createTestDatabase();
  await db.destroy();
  try {
    await db.selectFrom('petstore_pets').select('id').execute();
    assert.unreachable('a destroyed database answered');
  } catch (error) {
    assert.instance(error, Error);
    assert.not.match((error as Error).message, /unreachable/);
  }
});

test('createTestStore: a store on its own fresh database, with a default key', async () => {
  const one = await createTestStore();
  const two = await createTestStore({ keys: ['k2'], basePath: '' });
  try {
    assert.is(one.key, TEST_KEY);
    assert.is(two.key, 'k2');
    const res = await one.fetch(createPet('a'));
    assert.is(res.status, 201);
    assert.match(await res.text(), /^\{"id":1,/);
    assert.is((await one.db.selectFrom('petstore_pets').select('id').execute()).length, 1);
    const other = await two.store.fetch(new Request('http://t/pets', { headers: { authorization: 'Bearer k2' } }));
    assert.is(await other.text(), '[]');
  } finally {
    await Promise.all([one.close(), two.close()]);
  }
});

test('createTestStore: invalid options throw (and leave nothing open)', async () => {
  try {
    await createTestStore({ keys: [] });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, TypeError);
  }
});

test('docs/testing.md shows examples/testing/store.test.ts as it is', () => {
  const example = readFileSync(join(root, 'examples/testing/store.test.ts'), 'utf8');
  const code = example.slice(example.indexOf('\nimport ') + 1); // the first import statement, not `node --import` in a comment
  assert.ok(readFileSync(join(root, 'docs/testing.md'), 'utf8').includes(code), 'the snippet differs from the example file');
});

test('the docs example (examples/testing/store.test.ts) passes under node --test', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=tap', 'examples/testing/store.test.ts'],
    { cwd: root, timeout: 120_000 },
  );
  assert.match(stdout, /# pass 3\n/);
  assert.match(stdout, /# fail 0\n/);
});

test.run();
