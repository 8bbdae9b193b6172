// The `schema` option of createPetStore and migrate, on PostgreSQL: stores in two schemas of one
// database see only their own rows; each schema is migrated on its own, safely when several
// processes migrate at once. (On PGlite, createTestStore relies on the same option: test-stores.)
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Kysely, sql } from 'kysely';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type Database, MIGRATION_TABLE, createPetStore, migrate } from '../src/index.js';
import { createPostgresDatabase } from '../src/pg.js';
import { migrations } from '../src/storage/migrations/index.js';
import { createTestDatabase } from '../src/testing.js';

const test = suite('schema option');
const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
// Our own connections: the helpers' shared ones are closed by whichever test file ends first.
const url = process.env.DATABASE_URL;
if (!url && process.env.CI) throw new Error('DATABASE_URL must be set in CI: the PostgreSQL run may not be skipped');
let postgres: Promise<Kysely<Database>> | undefined;
const sharedPostgres = () => (url ? (postgres ??= createPostgresDatabase(url)) : undefined);

const unique = (tag: string) => `petstore_t_${tag}_${process.pid}_${Date.now() % 1e6}`;

const pets = (path: string, init: RequestInit = {}) =>
  new Request(`http://t/v1/pets${path}`, { ...init, headers: { authorization: 'Bearer k', 'content-type': 'application/json' } });

test('invalid schema names are refused with a TypeError', async () => {
  const db = await createTestDatabase();
  for (const schema of ['', 'x'.repeat(64), 'a\0b', 'pg_mine', 42]) {
    assert.throws(() => createPetStore({ db, keys: ['k'], schema: schema as string }), TypeError, JSON.stringify(schema));
    try {
      await migrate(db, { schema: schema as string });
      assert.unreachable();
    } catch (error) {
      assert.instance(error, TypeError, JSON.stringify(schema));
    }
  }
  await db.destroy();
});

test('PostgreSQL: two stores in two schemas of one database see only their own pets', async () => {
  const db = await sharedPostgres();
  if (!db) return console.log('schema option: DATABASE_URL unset, PostgreSQL case skipped');
  const [s1, s2] = [unique('a'), unique('b')];
  try {
    await migrate(db, { schema: s1 });
    await migrate(db, { schema: s2 });
    // One Kysely instance for both: the compiled statements must not be shared across schemas.
    const one = createPetStore({ db, keys: ['k'], schema: s1 });
    const two = createPetStore({ db, keys: ['k'], schema: s2 });
    const created = await one.fetch(pets('', { method: 'POST', body: '{"name":"in one","categoryId":1}' }));
    assert.is(created.status, 201);
    assert.match(await created.text(), /^\{"id":1,/);
    assert.match(await (await two.fetch(pets('', { method: 'POST', body: '{"name":"in two","categoryId":2}' }))).text(), /^\{"id":1,/);
    assert.equal(
      (JSON.parse(await (await one.fetch(pets(''))).text()) as { name: string }[]).map((p) => p.name),
      ['in one'],
    );
    assert.equal(
      (JSON.parse(await (await two.fetch(pets(''))).text()) as { name: string }[]).map((p) => p.name),
      ['in two'],
    );
    assert.match(await (await two.fetch(pets('/1'))).text(), /"name":"in two"/);
    // The rows really are in their schemas.
    const { rows } = await sql<{ name: string }>`select name from ${sql.id(s1, 'petstore_pets')}`.execute(db);
    assert.equal(rows, [{ name: 'in one' }]);
  } finally {
    await sql`drop schema if exists ${sql.id(s1)} cascade`.execute(db);
    await sql`drop schema if exists ${sql.id(s2)} cascade`.execute(db);
  }
});

test('PostgreSQL: each schema records its own migrations; a second run applies nothing', async () => {
  const db = await sharedPostgres();
  if (!db) return;
  const s = unique('m');
  try {
    const first = await migrate(db, { schema: s });
    assert.equal(
      first.map((r) => r.migrationName),
      Object.keys(migrations),
    );
    const { rows } = await sql<{ name: string }>`select name from ${sql.id(s, MIGRATION_TABLE)} order by name`.execute(db);
    assert.equal(
      rows.map((r) => r.name),
      Object.keys(migrations),
    );
    assert.equal(await migrate(db, { schema: s }), []);
    assert.equal(await migrate(db), [], 'the default schema is unaffected (already migrated)');
  } finally {
    await sql`drop schema if exists ${sql.id(s)} cascade`.execute(db);
  }
});

test('PostgreSQL: several processes migrating one new schema at once all succeed, each migration applied once', async () => {
  const db = await sharedPostgres();
  if (!db) return;
  const s = unique('c');
  try {
    const startAt = String(Date.now() + 2500); // after every process has imported and connected
    const outputs = await Promise.all(
      Array.from({ length: 4 }, () =>
        run(process.execPath, ['--import', 'tsx', 'test/helpers/migrate-schema.ts', process.env.DATABASE_URL!, s, startAt], {
          cwd: root,
          timeout: 120_000,
        }),
      ),
    );
    const applied = outputs.flatMap(({ stdout }) => JSON.parse(stdout) as string[]).sort();
    assert.equal(applied, Object.keys(migrations), 'each migration applied by exactly one process');
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(s, MIGRATION_TABLE)}`.execute(db);
    assert.is(rows[0]!.n, Object.keys(migrations).length);
    const store = createPetStore({ db, keys: ['k'], schema: s });
    assert.is((await store.fetch(pets('', { method: 'POST', body: '{"name":"x","categoryId":1}' }))).status, 201);
  } finally {
    await sql`drop schema if exists ${sql.id(s)} cascade`.execute(db);
  }
});

test.after(async () => {
  await (await sharedPostgres())?.destroy();
});

test.run();
