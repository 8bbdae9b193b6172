// The pre-migrated snapshot (issue 25): keyed by versions and the migrations' SQL, so a changed
// migration can never load an old snapshot; a broken or foreign cache file is never trusted.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPGliteDatabase } from 'petstore-router/pglite';
import { CACHE_ENV, cachedSnapshot, readSnapshot } from '../src/snapshot/cache.js';
import { snapshotKey } from '../src/snapshot/snapshot.js';
import { FIRST_SCHEMA, testSnapshot } from '../src/testing/snapshot.js';
import { migrations } from '../src/storage/migrations/index.js';

const test = suite('pre-migrated snapshot');
const cache = mkdtempSync(join(tmpdir(), 'petstore-snapshot-test-'));
const previous = process.env[CACHE_ENV];
const versions = { packageVersion: '1.0.0', pgliteVersion: '0.5.16' };

/** A migration added for one test: a new table, so a database shows whether it ran. */
const probe = {
  up: async (db: Kysely<any>) => void (await db.schema.createTable('petstore_snapshot_probe').addColumn('id', 'integer').execute()),
};
const withProbe = async <T>(body: () => Promise<T>): Promise<T> => {
  migrations['9999-snapshot-probe'] = probe;
  try {
    return await body();
  } finally {
    delete migrations['9999-snapshot-probe'];
  }
};

/** The tables of a schema (public unless named) of a PGlite started from `snapshot`. */
async function tablesOf(snapshot: Blob, schema = 'public'): Promise<string[]> {
  const pglite = new PGlite({ loadDataDir: snapshot });
  try {
    const { rows } = await pglite.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = $1 order by 1`, [
      schema,
    ]);
    return rows.map((r) => r.name);
  } finally {
    await pglite.close();
  }
}

test.before(() => void (process.env[CACHE_ENV] = cache));
test.after(() => {
  if (previous === undefined) delete process.env[CACHE_ENV];
  else process.env[CACHE_ENV] = previous;
  rmSync(cache, { recursive: true, force: true });
});

test('the key changes with a migration, an added migration, and either version', async () => {
  const key = await snapshotKey(versions);
  assert.is(await snapshotKey(versions), key, 'same inputs, same key');
  assert.is.not(await snapshotKey({ ...versions, packageVersion: '1.0.1' }), key);
  assert.is.not(await snapshotKey({ ...versions, pgliteVersion: '0.5.17' }), key);
  assert.is.not(await withProbe(() => snapshotKey(versions)), key, 'a migration added');
  const first = migrations['0001-initial']!;
  migrations['0001-initial'] = {
    up: async (db) => (await first.up(db), await db.schema.createIndex('probe_ix').on('petstore_pets').column('name').execute()),
  };
  try {
    assert.is.not(await snapshotKey(versions), key, "a migration's SQL changed");
  } finally {
    migrations['0001-initial'] = first;
  }
  assert.is(await snapshotKey(versions), key);
});

test('a cache file is read only with its own key and an intact payload', async () => {
  const file = join(cache, 'probe.snapshot');
  const payload = Buffer.from('a tarball, as far as this test goes');
  const sum = createHash('sha256').update(payload).digest('hex');
  const write = (header: string, body = payload) => writeFileSync(file, Buffer.concat([Buffer.from(`${header}\n`), body]));

  write(`petstore-router-snapshot k1 ${sum} ${payload.length}`);
  assert.ok(await readSnapshot(file, 'k1'), 'the right file is read');
  assert.is(await readSnapshot(file, 'k2'), undefined, 'another key (older migrations or versions)');
  write(`petstore-router-snapshot k1 ${sum} ${payload.length}`, Buffer.from(payload).fill(0x41, 3, 4));
  assert.is(await readSnapshot(file, 'k1'), undefined, 'a changed byte');
  write(`petstore-router-snapshot k1 ${sum} ${payload.length}`, payload.subarray(0, 10));
  assert.is(await readSnapshot(file, 'k1'), undefined, 'truncated');
  write(`something-else k1 ${sum} ${payload.length}`);
  assert.is(await readSnapshot(file, 'k1'), undefined, 'foreign');
  writeFileSync(file, 'no header at all');
  assert.is(await readSnapshot(file, 'k1'), undefined, 'garbage');
  rmSync(file);
});

test('a broken cache file is ignored and made again', async () => {
  assert.ok(await cachedSnapshot()); // made and written by this process
  const [name] = readdirSync(cache).filter((n) => n.endsWith('.snapshot'));
  const file = join(cache, name!);
  const bytes = readFileSync(file);
  bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
  writeFileSync(file, bytes);
  // A new process (no snapshot in memory) finds the file broken, makes a new one and works.
  const script = `import { createPGliteDatabase } from 'petstore-router/pglite';
const db = await createPGliteDatabase();
console.log((await db.selectFrom('petstore_pets').select('id').execute()).length);
await db.destroy();`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, [CACHE_ENV]: cache },
    cwd: join(import.meta.dirname, '..'),
  });
  assert.is(out.toString().trim(), '0');
  assert.not.equal(readFileSync(file), bytes, 'the broken file was replaced');
});

test('after a migration changes, the old snapshot is not used: a new one is made and the old file removed', async () => {
  const before = await cachedSnapshot();
  assert.ok(before);
  const [oldFile] = readdirSync(cache).filter((n) => n.endsWith('.snapshot'));
  assert.ok(oldFile, 'the snapshot was written to the cache');
  assert.not.ok((await tablesOf(before)).includes('petstore_snapshot_probe'));

  const after = await withProbe(() => cachedSnapshot());
  assert.ok(after);
  assert.is.not(after, before);
  assert.ok((await tablesOf(after)).includes('petstore_snapshot_probe'), 'the snapshot in use has the changed migrations');
  assert.not.ok(existsSync(join(cache, oldFile)), 'the old snapshot file is gone');
  assert.is(readdirSync(cache).filter((n) => n.endsWith('.snapshot')).length, 1);
});

test("the test stores' snapshot: the migrated tables in the first store's schema, no bookkeeping, no template database, made again with the migrations", async () => {
  const snapshot = await cachedSnapshot(testSnapshot);
  assert.ok(snapshot);
  const tables = await tablesOf(snapshot, FIRST_SCHEMA);
  assert.ok(tables.includes('petstore_pets') && tables.includes('petstore_orders'), tables.join());
  assert.not.ok(
    tables.some((t) => t.startsWith('petstore_migration')),
    'no migration bookkeeping',
  );
  assert.equal(await tablesOf(snapshot), [], 'public is empty');
  const pglite = new PGlite({ loadDataDir: snapshot });
  try {
    const { rows } = await pglite.query<{ datname: string }>('select datname from pg_database order by 1');
    assert.equal(
      rows.map((r) => r.datname),
      ['postgres'],
    );
  } finally {
    await pglite.close();
  }
  const files = () => readdirSync(cache).filter((n) => n.startsWith('pglite-testing-'));
  const [oldFile] = files();
  assert.ok(oldFile, 'cached beside the migrated snapshot');
  const after = await withProbe(() => cachedSnapshot(testSnapshot));
  assert.ok((await tablesOf(after!, FIRST_SCHEMA)).includes('petstore_snapshot_probe'), 'made again from the changed migrations');
  assert.equal(files().length, 1);
  assert.is.not(files()[0], oldFile, 'the old file is gone');
});

test('createPGliteDatabase() on a new data directory starts from the snapshot and opens it again without the Migrator', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-snapshot-dir-'));
  try {
    const db = await createPGliteDatabase({ dataDir: dir });
    await db.insertInto('petstore_pets').values({ name: 'kept', category_id: 1n, status: 'available' }).execute();
    await db.destroy();
    const again = await createPGliteDatabase({ dataDir: dir });
    const names = (await again.selectFrom('petstore_pets').select('name').execute()).map((r) => r.name);
    await again.destroy();
    assert.equal(names, ['kept']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
