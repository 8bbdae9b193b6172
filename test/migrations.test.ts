import { Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Database, MIGRATION_LOCK_TABLE, MIGRATION_TABLE, migrate } from '../src/index.js';
import { createPostgresDatabase } from '../src/pg.js';
import { migrations } from '../src/storage/migrations/index.js';
import { sharedPGlite } from './helpers/db.js';
import { postgresTest } from './helpers/postgres-test.js';

test('migrate is idempotent: a second run applies nothing', async () => {
  const db = await sharedPGlite(); // already migrated once by createPGliteDatabase
  assert.equal(await migrate(db), []);
  const tables = await sql<{
    table_name: string;
  }>`select table_name from information_schema.tables where table_schema = current_schema() order by 1`.execute(db);
  const names = tables.rows.map((r) => r.table_name);
  for (const t of ['petstore_pets', 'petstore_orders', MIGRATION_TABLE, MIGRATION_LOCK_TABLE]) assert.ok(names.includes(t), t);
  assert.not.ok(names.includes('kysely_migration'), "our bookkeeping never uses Kysely's default table names");
});

test('the list indexes exist: the primary key on id and (status, id)', async () => {
  const db = await sharedPGlite();
  const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes where tablename = 'petstore_pets'`.execute(db);
  const defs = rows.map((r) => r.indexdef).join('\n');
  assert.match(defs, /UNIQUE INDEX petstore_pets_pkey .*\(id\)/);
  assert.match(defs, /petstore_pets_status_id_idx .*\(status, id\)/);
});

test("a host application's own Kysely migrations live beside ours without colliding", async () => {
  const db = (await sharedPGlite()) as Kysely<any>;
  const host = new Migrator({
    db,
    provider: {
      getMigrations: async () => ({
        '0001-host': {
          up: async (d: Kysely<any>) => void (await d.schema.createTable('host_things').ifNotExists().addColumn('id', 'integer').execute()),
        },
      }),
    },
  });
  const { error } = await host.migrateToLatest();
  assert.is(error, undefined);
  assert.equal(await migrate(db), []);
  await db.schema.dropTable('host_things').execute();
  await db.schema.dropTable('kysely_migration').execute();
  await db.schema.dropTable('kysely_migration_lock').execute();
});

postgresTest(test, 'on PostgreSQL, several processes migrating at once all succeed and apply each migration once', async (url) => {
  // A fresh database (not a schema: Kysely's Migrator looks for its tables in every schema).
  const name = `petstore_migrate_${process.pid}_${Date.now()}`;
  // CREATE and DROP DATABASE wait for a checkpoint: on a loaded machine longer than the default statement timeout.
  const admin = await createPostgresDatabase({ connectionString: url, statement_timeout: 120_000 }, { migrate: false });
  await sql`create database ${sql.id(name)}`.execute(admin);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const dbs: Kysely<Database>[] = [];
  try {
    for (let i = 0; i < 6; i++) dbs.push(await createPostgresDatabase({ connectionString: target.href, max: 2 }, { migrate: false }));
    const results = await Promise.all(dbs.map((db) => migrate(db)));
    const applied = results
      .flat()
      .filter((r) => r.status === 'Success')
      .map((r) => r.migrationName);
    assert.equal(applied, Object.keys(migrations), 'each migration applied exactly once across all processes');
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from ${sql.table(MIGRATION_TABLE)}`.execute(dbs[0]!);
    assert.is(rows[0]!.n, String(applied.length));
    assert.equal(await migrate(dbs[0]!), []);
  } finally {
    await Promise.all(dbs.map((db) => db.destroy()));
    await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
    await admin.destroy();
  }
});

postgresTest(test, "on PostgreSQL, waiting for another process's migration is not cut by the statement timeout", async (url) => {
  // A 1.5 s statement timeout and the migration lock held for 4 s by another session.
  const holder = await createPostgresDatabase({ connectionString: url, max: 1 }, { migrate: false });
  const waiter = await createPostgresDatabase({ connectionString: url, max: 1, statement_timeout: 1500 }, { migrate: false });
  try {
    // This worker's database may be new (npm test runs files in any order): migrated first, so the waiter has nothing to apply.
    await migrate(holder);
    let released!: () => void;
    const held = holder.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(8099007544119226981)`.execute(trx);
      await new Promise<void>((resolve) => (released = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    const migrated = migrate(waiter);
    setTimeout(() => released(), 4000);
    assert.equal(await migrated, [], 'the database is already migrated: nothing applied, and no statement timeout');
    assert.ok(performance.now() - started >= 3500, 'it waited for the lock');
    await held;
  } finally {
    await holder.destroy();
    await waiter.destroy();
  }
});

postgresTest(
  test,
  'on PostgreSQL, a migration that fails leaves nothing half-done and no lock held, and runs once the cause is gone',
  async (url) => {
    const name = `petstore_migrate_fail_${process.pid}_${Date.now()}`;
    // CREATE and DROP DATABASE wait for a checkpoint: on a loaded machine longer than the default statement timeout.
    const admin = await createPostgresDatabase({ connectionString: url, statement_timeout: 120_000 }, { migrate: false });
    await sql`create database ${sql.id(name)}`.execute(admin);
    const target = new URL(url);
    target.pathname = `/${name}`;
    // One connection: the one that failed is the one looked at, still open in the pool.
    const db = await createPostgresDatabase({ connectionString: target.href, max: 1 }, { migrate: false });
    const tables = async () =>
      (await sql<{ t: string }>`select tablename as t from pg_tables where schemaname = current_schema() order by 1`.execute(db)).rows.map(
        (r) => r.t,
      );
    try {
      // A view where the first migration creates its second table: that statement fails.
      await sql`create view petstore_orders as select 1 as id`.execute(db);
      const failed = await migrate(db).then(
        () => 'migrated',
        (error: Error) => error.message,
      );
      assert.match(failed, /^petstore-router migration failed: .*petstore_orders/, failed);
      assert.equal(await tables(), [], "the failed migration's tables, and Kysely's bookkeeping tables, are rolled back");
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()`.execute(db);
      assert.is(rows[0]!.n, 0, 'the connection that migrated holds no advisory lock (Kysely takes a session lock)');

      await sql`drop view petstore_orders`.execute(db);
      assert.equal(
        (await migrate(db)).map((r) => r.status),
        Object.keys(migrations).map(() => 'Success'),
      );
    } finally {
      await db.destroy();
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
      await admin.destroy();
    }
  },
);

test.run();
