// Our compiled pet statements get rows as arrays from the pg driver's statement runner
// (drivers/contract.ts) and map them in code that only sees pet rows. What a user observes is the
// same records either way; this test checks that, and that the array path is really taken where
// the runner is given (a regression there costs CPU, not correctness).
import { type Kysely, type KyselyPlugin, type PluginTransformResultArgs, type QueryResult, type UnknownRow } from 'kysely';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresDatabase } from '../src/pg.js';
import { contractOf } from '../src/drivers/database.js';
import type { Executor } from '../src/storage/statement.js';
import type { Database } from '../src/storage/database.js';
import { findPet, insertPet, listPets } from '../src/storage/pets.js';
import { resetDatabase } from './helpers/db.js';
import { postgresTest } from './helpers/postgres-test.js';

/** A plugin that changes nothing but records the rows it is shown (objects or arrays). */
class RowWatcher implements KyselyPlugin {
  arrays = 0;
  objects = 0;
  transformQuery<T>(args: { node: T }): T {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const row of args.result.rows) {
      if (Array.isArray(row)) this.arrays++;
      else this.objects++;
    }
    return args.result;
  }
}

/** What the repository answers for three pets, through `db`. */
async function readBack(db: Executor) {
  const inserted = await insertPet(db, { name: 'C "quoted" \u00e9', categoryId: -9223372036854775808n, status: 'pending' });
  return {
    inserted,
    found: await findPet(db, BigInt(inserted.id)),
    all: await listPets(db, { limit: 10 }),
    available: await listPets(db, { limit: 1, status: 'available' }),
    after: await listPets(db, { limit: 10, afterId: 0n }),
  };
}

async function seed(db: Kysely<Database>) {
  await resetDatabase(db);
  await db
    .insertInto('petstore_pets')
    .values([
      { id: 9223372036854775807n, name: 'max', category_id: 9007199254740993n, status: 'sold' },
      { id: 1000n, name: 'b', category_id: 1n, status: 'available' },
    ])
    .execute();
}

postgresTest(test, "PostgreSQL (a pool we create): pet rows are decoded as arrays, never by pg's shared object decoder", async (url) => {
  const db = await createPostgresDatabase(url);
  await seed(db);
  const proto = pg.Result.prototype as unknown as Record<'parseRow' | '_parseRowAsArray', (this: unknown, row: unknown[]) => unknown>;
  const { parseRow, _parseRowAsArray } = proto;
  let objects = 0;
  let arrays = 0;
  proto.parseRow = function (row) {
    objects++;
    return parseRow.call(this, row);
  };
  proto._parseRowAsArray = function (row) {
    arrays++;
    return _parseRowAsArray.call(this, row);
  };
  let viaArrays;
  try {
    viaArrays = await readBack({ kysely: db, runner: contractOf(db).statements });
  } finally {
    proto.parseRow = parseRow;
    proto._parseRowAsArray = _parseRowAsArray;
  }
  assert.is(objects, 0, 'no pet row went through parseRow');
  assert.is(arrays, 1 + 1 + 3 + 1 + 3, 'insert, find, three rows, one of two available (limit + 1), three');
  assert.equal(
    viaArrays.all.items.map((p) => p.id),
    [viaArrays.inserted.id, '1000', '9223372036854775807'],
  );
  assert.equal(viaArrays.all.items[2], { id: '9223372036854775807', name: 'max', categoryId: '9007199254740993', status: 'sold' });

  const watcher = new RowWatcher();
  await db.deleteFrom('petstore_pets').where('id', '=', BigInt(viaArrays.inserted.id)).execute();
  const viaPlugin = await readBack({ kysely: db.withPlugin(watcher) });
  assert.is(watcher.arrays + watcher.objects, 0, 'no plugin saw a pet row');
  assert.equal(
    viaPlugin.all.items.map((p) => p.name),
    viaArrays.all.items.map((p) => p.name),
  );
  assert.equal(viaPlugin.found, { ...viaArrays.found!, id: viaPlugin.inserted.id });

  // The plain path, differential: a caller's own Pool (nothing named, object rows) answers the same records.
  await db.deleteFrom('petstore_pets').where('id', '=', BigInt(viaPlugin.inserted.id)).execute();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const plain = await createPostgresDatabase(pool, { migrate: false });
  objects = arrays = 0;
  proto.parseRow = function (row) {
    objects++;
    return parseRow.call(this, row);
  };
  let viaObjects;
  try {
    viaObjects = await readBack({ kysely: plain });
  } finally {
    proto.parseRow = parseRow;
  }
  assert.ok(objects > 0, 'the plain path decoded object rows');
  const id = viaObjects.inserted.id;
  const renamed = (p: { id: string }) => (p.id === id ? { ...p, id: viaArrays.inserted.id } : p);
  assert.equal(
    {
      ...viaObjects,
      inserted: renamed(viaObjects.inserted),
      found: renamed(viaObjects.found!),
      all: { ...viaObjects.all, items: viaObjects.all.items.map(renamed) },
      after: { ...viaObjects.after, items: viaObjects.after.items.map(renamed) },
    },
    viaArrays,
  );
  await plain.destroy();
  await pool.end();
  await resetDatabase(db);
  await db.destroy();
});

test.run();
