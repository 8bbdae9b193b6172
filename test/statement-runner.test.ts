// The prepared path for the store's own statements (the runner of src/drivers/contract.ts, given
// explicitly) against Kysely's plain path, on PostgreSQL: same rows, same errors; taken only when
// the runner is given (never in a transaction or on a connection-bound Kysely); and `db.destroy()`
// still ends the pool when only the runner ran.
import type { Kysely } from 'kysely';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresDatabase } from '../src/pg.js';
import type { StatementRunner } from '../src/drivers/contract.js';
import { contractOf } from '../src/drivers/database.js';
import { type Executor, defineStatement } from '../src/storage/statement.js';
import type { Database } from '../src/storage/database.js';
import { findPet, insertPet, listPets } from '../src/storage/pets.js';
import { countRequest } from '../src/storage/rate-limits.js';
import { postgresSuite } from './helpers/postgres-test.js';

type Context = { db: Kysely<Database>; target: Executor; runs: number };
const test = postgresSuite(suite<Context>('statement runner', { db: undefined as never, target: undefined as never, runs: 0 }));

test.before(async (context) => {
  context.db = await createPostgresDatabase(process.env.DATABASE_URL!);
  const runner = contractOf(context.db).statements;
  assert.ok(runner, 'a pool of ours carries a runner');
  // Counts what goes the direct way, so each case can tell which path it took.
  const counting: StatementRunner = {
    run: (sql, parameters, map) => {
      context.runs++;
      return runner.run(sql, parameters, map);
    },
  };
  context.target = { kysely: context.db, runner: counting };
});
test.after(async ({ db }) => db.destroy());

/** The same work through both paths: `db` (direct) and a copy of it without the runner (plain). */
async function both<T>(context: Context, work: (db: Executor) => Promise<T>): Promise<[T, T]> {
  const plainDb = context.db;
  const before = context.runs;
  const direct = await work(context.target);
  assert.ok(context.runs > before, 'the direct path ran');
  const afterDirect = context.runs;
  const plain = await work({ kysely: plainDb });
  assert.is(context.runs, afterDirect, 'the plain path did not use the runner');
  return [direct, plain];
}

test('inserts and reads back the same pets either way', async (context) => {
  const [a, b] = await both(context, (db) =>
    insertPet(db, { name: 'Ünïcode "quoted" 🐈', categoryId: 9_007_199_254_740_993n, status: 'pending' }),
  );
  assert.is(a.name, b.name);
  assert.is(a.categoryId, '9007199254740993', 'int64 past 2^53 stays exact');
  assert.is(b.categoryId, '9007199254740993');
  assert.is(BigInt(b.id) - BigInt(a.id), 1n);
  const [foundA, foundB] = await both(context, (db) => findPet(db, BigInt(a.id)));
  assert.equal(foundA, a);
  assert.equal(foundB, a);
  const [missingA, missingB] = await both(context, (db) => findPet(db, 9_223_372_036_854_775_807n));
  assert.is(missingA, undefined);
  assert.is(missingB, undefined);
});

test('every page shape gives the same page either way', async (context) => {
  for (let i = 0; i < 25; i++)
    await insertPet({ kysely: context.db }, { name: `runner-${i}`, categoryId: 1n, status: i % 2 ? 'sold' : 'available' });
  const first = await listPets({ kysely: context.db }, { limit: 5 });
  const afterId = BigInt(first.items[2]!.id);
  for (const params of [
    { limit: 20 },
    { limit: 5, afterId },
    { limit: 50, status: 'sold' as const },
    { limit: 3, status: 'available' as const, afterId },
  ]) {
    const [direct, plain] = await both(context, (db) => listPets(db, params));
    assert.equal(direct, plain, `${params.limit} ${params.status ?? ''} ${params.afterId ?? ''}`);
    assert.ok(direct.items.length > 0);
  }
});

test('an upsert returns the same counts either way', async (context) => {
  const key = `runner-${Date.now()}`;
  const [a, b] = await both(context, (db) => countRequest(db, key, 1_700_000_000));
  assert.equal(a, { hits: 1, windowStart: 1_700_000_000 });
  assert.equal(b, { hits: 2, windowStart: 1_700_000_000 });
});

test('a failing statement rejects with the same PostgreSQL error either way', async (context) => {
  // A category id past int8: PostgreSQL refuses it (22003), nothing is stored.
  const failing = (db: Executor) =>
    insertPet(db, { name: 'too big', categoryId: 2n ** 63n }).then(
      () => 'stored',
      (e: { code?: string }) => e.code,
    );
  const [direct, plain] = await both(context, failing);
  assert.is(direct, '22003');
  assert.is(plain, '22003');
  // The client went back to the pool after the failure: the next statements still run.
  const pet = await insertPet(context.target, { name: 'after failure', categoryId: 1n });
  assert.equal(await findPet(context.target, BigInt(pet.id)), pet);
});

test('statements in a transaction or on one connection never take the direct path', async (context) => {
  const before = context.runs;
  const inTransaction = await context.db
    .transaction()
    .execute((trx) => insertPet({ kysely: trx }, { name: 'in transaction', categoryId: 1n }));
  const onConnection = await context.db.connection().execute((conn) => findPet({ kysely: conn }, BigInt(inTransaction.id)));
  assert.equal(onConnection, inTransaction);
  assert.is(context.runs, before);
});

test('a database only the runner used: destroy() still ends its pool', async () => {
  const db = await createPostgresDatabase(process.env.DATABASE_URL!, { migrate: false });
  const target = { kysely: db, runner: contractOf(db).statements };
  assert.ok(target.runner);
  const pet = await insertPet(target, { name: 'lazy', categoryId: 1n });
  assert.equal(await findPet(target, BigInt(pet.id)), pet);
  await db.destroy();
  const after = await findPet(target, BigInt(pet.id)).then(
    () => 'answered',
    (e: Error) => e.message,
  );
  assert.match(after, /end|destroyed/i, 'the pool was ended by destroy()');
});

// first() and one() pick the row in the step that maps the rows, on both paths: first() gives
// undefined for no row; one() fails, naming the statement, where a row was owed.
test('first() and one(): the first row, none, and a missing row that was owed', async (context) => {
  const byId = defineStatement<[id: bigint], string>(
    'find a pet name by id',
    1,
    (d, id) => d.selectFrom('petstore_pets').select('name').where('id', '=', id),
    (row) => row[0] as string,
  );
  const [pet] = await both(context, (db) => insertPet(db, { name: 'First', categoryId: 1n, status: 'available' }));
  const [foundA, foundB] = await both(context, (db) => byId.first(db, BigInt(pet.id)));
  assert.is(foundA, 'First');
  assert.equal(foundB, { name: 'First' }, "Kysely's path: the row as an object, as run() gives it");
  const [noneA, noneB] = await both(context, (db) => byId.first(db, -1n));
  assert.is(noneA, undefined);
  assert.is(noneB, undefined);
  for (const db of [context.target, { kysely: context.db }]) {
    const owed = await byId.one(db, -1n).then(
      () => 'resolved',
      (error: unknown) => (error as Error).message,
    );
    assert.is(owed, 'petstore-router: find a pet name by id answered no row');
  }
});

test.run();
