/**
 * Test-suite ergonomics: (1) the time from nothing to the first in-process response, in a fresh
 * process (what the first test of a suite waits for); (2) the time to get a fresh, isolated,
 * migrated store once one exists (what every further test pays), for each way of getting one.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite, types } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { type Database, createPetStore, migrate } from 'petstore-router';
import { createPostgresDatabase } from 'petstore-router/pg';
import { createPGliteDatabase } from 'petstore-router/pglite';
import { createTestDatabase, resetTestDatabase } from 'petstore-router/testing';
import { Migrator } from 'kysely/migration';
import { migrations } from '../../src/storage/migrations/index.js';
import { config } from './config.js';
import { fmt, median, table } from './stats.js';
import { build } from 'tsup';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const parsers = { [types.INT8]: (v: string) => BigInt(v) };

async function coldStart(log: (s: string) => void): Promise<(string | number)[][]> {
  const outDir = join(config.workDir, 'servers');
  await build({
    config: false,
    entry: { 'first-response': join(root, 'test/bench/servers/first-response.ts') },
    outDir,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    silent: true,
    external: ['@electric-sql/pglite', 'pg', 'kysely', 'valibot', 'itty-router', '@valibot/to-json-schema'],
    outExtension: () => ({ js: '.mjs' }),
  });
  const runs: { wall: number; imports: number; database: number; firstResponse: number }[] = [];
  for (let i = 0; i < (config.quick ? 2 : 5); i++) {
    const t = performance.now();
    const { stdout } = await run(process.execPath, [join(outDir, 'first-response.mjs')], { cwd: root });
    const wall = performance.now() - t;
    const phases = JSON.parse(stdout.trim().split('\n').pop()!) as {
      imports: number;
      database: number;
      firstResponse: number;
      total: number;
    };
    runs.push({ wall, ...phases });
    log(
      `  cold start ${i + 1}: ${fmt.int(wall)} ms (imports ${fmt.int(phases.imports)}, PGlite + migrations ${fmt.int(phases.database)}, first response ${fmt.ms(phases.firstResponse)})`,
    );
  }
  const m = (k: keyof (typeof runs)[number]) => fmt.int(median(runs.map((r) => r[k])));
  return [
    [
      'nothing to first in-process response (new `node` process, in-memory PGlite)',
      m('wall'),
      `node + imports ${m('imports')}, PGlite initdb + migrations ${m('database')}, store + first response ${fmt.ms(median(runs.map((r) => r.firstResponse)))}`,
    ],
  ];
}

/**
 * Our migrations into schema `s` (search_path must point at it). Our `migrate()` keeps its
 * bookkeeping in the default schema, where Kysely would find the shared one already done.
 */
async function migrateInSchema(db: Kysely<Database>, s: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableName: 'petstore_migration',
    migrationLockTableName: 'petstore_migration_lock',
    migrationTableSchema: s,
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('migration failed', { cause: error });
}

type Option = {
  name: string;
  note: string;
  n: number;
  setup?: () => Promise<void>;
  fresh: () => Promise<{ db: Kysely<Database>; dispose?: () => Promise<void> }>;
  teardown?: () => Promise<void>;
};

async function check(db: Kysely<Database>): Promise<void> {
  const store = createPetStore({ db, keys: ['k'] });
  const res = await store.fetch(
    new Request('http://t/v1/pets', {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"name":"a","categoryId":1}',
    }),
  );
  const body = await res.text();
  if (res.status !== 201 || !body.startsWith('{"id":1,')) throw new Error(`fresh store is not fresh: ${res.status} ${body}`);
}

function options(): Option[] {
  let shared: Kysely<Database> | undefined;
  let template: PGlite | undefined;
  let sharedPg: Kysely<Database> | undefined;
  let schemaN = 0;
  const truncate = (db: Kysely<Database>) => resetTestDatabase(db);
  return [
    {
      name: 'fresh store: `resetTestDatabase()` of the shared instance (petstore-router/testing)',
      note: 'isolated from earlier tests, not from a concurrent one (one PGlite per test file)',
      n: 50,
      setup: async () => void (shared = await createPGliteDatabase()),
      fresh: async () => {
        await truncate(shared!);
        return { db: shared! };
      },
    },
    {
      name: 'PGlite: new schema in the shared instance (search_path + migrate)',
      note: 'sequential only: search_path belongs to the one connection',
      n: 20,
      fresh: async () => {
        const s = `t${++schemaN}`;
        await sql`create schema ${sql.id(s)}`.execute(shared!);
        await sql`set search_path to ${sql.id(s)}`.execute(shared!);
        await migrateInSchema(shared!, s);
        return { db: shared!, dispose: async () => void (await sql`set search_path to public`.execute(shared!)) };
      },
      teardown: async () => void (await shared!.destroy()),
    },
    {
      name: 'PGlite: `clone()` of a migrated template',
      note: 'fully isolated instance; memory per clone',
      n: config.quick ? 3 : 8,
      setup: async () => {
        template = new PGlite({ parsers });
        await migrate(new Kysely<Database>({ dialect: new (await import('kysely')).PGliteDialect({ pglite: template }) }));
      },
      fresh: async () => {
        const clone = (await template!.clone()) as PGlite;
        const db = await createPGliteDatabase({ pglite: clone, migrate: false });
        return { db, dispose: async () => void (await db.destroy(), await clone.close()) };
      },
    },
    {
      // The public API: a schema of the process's shared PGlite, reused after destroy() (test-stores suite).
      name: 'fresh isolated store: `createTestDatabase()` (petstore-router/testing)',
      note: 'its own schema of one shared PGlite, emptied and reused after `destroy()` (see the test-stores suite)',
      n: config.quick ? 3 : 8,
      setup: async () => void (await (await createTestDatabase()).destroy()), // the shared PGlite, once
      fresh: async () => {
        const db = await createTestDatabase();
        return { db, dispose: async () => void (await db.destroy()) };
      },
      teardown: async () => void (await template!.close()),
    },
    {
      name: 'PostgreSQL: TRUNCATE the shared database',
      note: 'as the PGlite TRUNCATE',
      n: 50,
      setup: async () => void (sharedPg = await createPostgresDatabase(config.databaseUrl)),
      fresh: async () => {
        await truncate(sharedPg!);
        return { db: sharedPg! };
      },
      teardown: async () => void (await sharedPg!.destroy()),
    },
    {
      name: 'PostgreSQL: new schema + pool (search_path) + migrate',
      note: 'fully isolated, concurrent tests possible',
      n: config.quick ? 5 : 15,
      fresh: async () => {
        const s = `petstore_bench_t${process.pid}_${++schemaN}`;
        const pool = new pg.Pool({ connectionString: config.databaseUrl, options: `-c search_path=${s}` });
        const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
        await sql`create schema ${sql.id(s)}`.execute(db);
        await migrateInSchema(db, s);
        return {
          db,
          dispose: async () => {
            await sql`drop schema ${sql.id(s)} cascade`.execute(db);
            await db.destroy();
          },
        };
      },
    },
  ];
}

export async function runErgonomics(log: (s: string) => void): Promise<string> {
  const rows = await coldStart(log);
  for (const o of options()) {
    await o.setup?.();
    const times: number[] = [];
    for (let i = 0; i < o.n; i++) {
      const t = performance.now();
      const { db, dispose } = await o.fresh();
      createPetStore({ db, keys: ['k'] });
      times.push(performance.now() - t);
      await check(db); // a fresh store: the first pet gets id 1
      await dispose?.();
    }
    await o.teardown?.();
    log(`  ${o.name}: median ${fmt.ms(median(times))} ms`);
    rows.push([o.name, fmt.ms(median(times)), `${o.note}; median of ${o.n}`]);
  }
  return table(['what', 'median ms', 'notes'], rows);
}
