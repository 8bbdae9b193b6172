// Fast path `batched-creates` (src/storage/pet-inserts.ts) against its plain form, one insert
// statement per pet, on PostgreSQL: creates that arrive while one runs are stored by few statements,
// each caller answered with its own row; a pet the database refuses fails alone; a batch the
// database cannot answer fails every create in it and is not sent again; a stuck statement delays
// only its own creates (no head-of-line blocking), within bounds on rounds, waiting creates and
// waiting time, past which a create is refused unsent; the store's answers are
// the same with and without (`batchCreates: false`), and observed stores send one statement per
// create.
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore, migrate } from '../src/index.js';
import { createPostgresDatabase } from '../src/pg.js';
import { NotSentError, UnansweredError, classifyDatabaseError } from '../src/drivers/classify.js';
import type { StatementRunner } from '../src/drivers/contract.js';
import { contractOf } from '../src/drivers/database.js';
import type { NewStoredPet, PetRecord } from '../src/model.js';
import type { Database } from '../src/storage/database.js';
import { PetInserts } from '../src/storage/pet-inserts.js';
import { findPet, insertPet } from '../src/storage/pets.js';
import type { Executor } from '../src/storage/statement.js';
import { KEY, ORIGIN } from './helpers/harness.js';
import { postgresSuite } from './helpers/postgres-test.js';

const SCHEMA = `batched_creates_${process.pid}`;
const REFUSED = 'refused by a trigger';

interface Context {
  db: Kysely<Database>;
  runner: StatementRunner;
  /** The pets of each statement sent through the runner: 1 for the plain insert, n for a batch. */
  sent: number[];
  /** The most statements the runner had running at once. */
  mostAtOnce: number;
}
const test = postgresSuite(
  suite<Context>('batched creates', { db: undefined as never, runner: undefined as never, sent: [], mostAtOnce: 0 }),
);

test.before(async (context) => {
  context.db = await createPostgresDatabase(process.env.DATABASE_URL!);
  context.runner = contractOf(context.db).statements!;
  await migrate(context.db, { schema: SCHEMA });
  // A refusal of the database's own that validation cannot foresee: one pet of a batch fails. And
  // PostgreSQL's own count of the insert statements that reached it (a statement-level trigger).
  await sql
    .raw(
      `create function ${SCHEMA}.refuse() returns trigger language plpgsql as $$
         begin if new.name = '${REFUSED}' then raise exception 'pet refused'; end if; return new; end $$;
       create trigger refuse before insert on ${SCHEMA}.petstore_pets for each row execute function ${SCHEMA}.refuse();
       create table ${SCHEMA}.insert_statements (at timestamptz not null default now());
       create function ${SCHEMA}.count_insert() returns trigger language plpgsql as $$
         begin insert into ${SCHEMA}.insert_statements default values; return null; end $$;
       create trigger count_inserts after insert on ${SCHEMA}.petstore_pets for each statement execute function ${SCHEMA}.count_insert();`,
    )
    .execute(context.db);
});
test.after(async ({ db }) => {
  await sql`drop schema if exists ${sql.id(SCHEMA)} cascade`.execute(db);
  await db.destroy();
});
test.before.each((context) => {
  context.sent = [];
  context.mostAtOnce = 0;
});

/** The store's target in SCHEMA, through `runner` (default: ours), counting what each statement carries. */
function target(context: Context, runner: StatementRunner = context.runner): Executor {
  let atOnce = 0;
  const counting: StatementRunner = {
    run: (statement, parameters, map) => {
      const first = parameters[0];
      // The batch statement's one parameter is a JSON array of pets; the plain insert's first is a name.
      context.sent.push(parameters.length === 1 && typeof first === 'string' ? (JSON.parse(first) as unknown[]).length : 1);
      context.mostAtOnce = Math.max(context.mostAtOnce, ++atOnce);
      const ran = runner.run(statement, parameters, map);
      void ran.then(
        () => atOnce--,
        () => atOnce--,
      );
      return ran;
    },
  };
  return { kysely: context.db.withSchema(SCHEMA), runner: counting };
}

/** `n` pets whose names say their index, with awkward text, large ids and every status (or none). */
function pets(n: number, tag: string): NewStoredPet[] {
  const statuses = ['available', 'pending', 'sold', undefined] as const;
  const names = ['Ünïcode 🐈', 'quote " and \\ backslash', "apostrophe ' ,{}", 'tab\tand\nnewline'];
  return Array.from({ length: n }, (_, i) => ({
    name: `${tag} ${i} ${names[i % names.length]}`,
    categoryId: i % 3 === 0 ? 9_223_372_036_854_775_807n - BigInt(i) : BigInt(i) + 9_007_199_254_740_993n,
    status: statuses[i % statuses.length],
  }));
}

function assertOwnRecords(records: PetRecord[], sentPets: NewStoredPet[]): void {
  assert.is(records.length, sentPets.length);
  records.forEach((record, i) => {
    const pet = sentPets[i]!;
    assert.equal(
      { name: record.name, categoryId: record.categoryId, status: record.status },
      { name: pet.name, categoryId: String(pet.categoryId), status: pet.status ?? 'available' },
      `create ${i} is answered with its own pet`,
    );
  });
  assert.is(new Set(records.map((r) => r.id)).size, records.length, 'every create has its own id');
}

test('creates that arrive while one runs are stored by few statements, each answered with its own row', async (context) => {
  const inserts = new PetInserts(target(context), classifyDatabaseError);
  const sentPets = pets(40, 'together');
  const records = await Promise.all(sentPets.map((pet) => inserts.insert(pet)));
  assertOwnRecords(records, sentPets);
  assert.equal(context.sent, [1, 13, 13, 13], 'the first alone, the 39 that waited for it in three statements of 13');
  // What each caller was told is what the database holds.
  for (const record of records) assert.equal(await findPet({ kysely: context.db.withSchema(SCHEMA) }, BigInt(record.id)), record);
});

test('a statement holds at most 16 pets: a round of 149 is ten statements of even size at once, so no create waits for two', async (context) => {
  const inserts = new PetInserts(target(context), classifyDatabaseError);
  const sentPets = pets(150, 'many');
  const records = await Promise.all(sentPets.map((pet) => inserts.insert(pet)));
  assertOwnRecords(records, sentPets);
  assert.equal(context.sent, [1, 14, 15, 15, 15, 15, 15, 15, 15, 15, 15]);
  assert.is(context.mostAtOnce, 10, 'the round sent its ten statements together');
});

test('creates from two processes at once: each still gets its own row', async (context) => {
  const other = await createPostgresDatabase(process.env.DATABASE_URL!);
  try {
    const here = new PetInserts(target(context), classifyDatabaseError);
    const there = new PetInserts({ kysely: other.withSchema(SCHEMA), runner: contractOf(other).statements }, classifyDatabaseError);
    const [a, b] = [pets(200, 'here'), pets(200, 'there')];
    const [ra, rb] = await Promise.all([Promise.all(a.map((pet) => here.insert(pet))), Promise.all(b.map((pet) => there.insert(pet)))]);
    assertOwnRecords(ra, a);
    assertOwnRecords(rb, b);
  } finally {
    await other.destroy();
  }
});

test('a create while none runs is sent at once, alone, and the same pets read the same as one statement per pet', async (context) => {
  const inserts = new PetInserts(target(context), classifyDatabaseError);
  const sentPets = pets(8, 'alone');
  const batched: PetRecord[] = [];
  for (const pet of sentPets) batched.push(await inserts.insert(pet));
  assert.equal(context.sent, [1, 1, 1, 1, 1, 1, 1, 1], 'nothing waits when nothing runs');
  const together = await Promise.all(sentPets.map((pet) => inserts.insert(pet)));
  const plain = await Promise.all(sentPets.map((pet) => insertPet({ kysely: context.db.withSchema(SCHEMA) }, pet)));
  const withoutId = (r: PetRecord) => ({ ...r, id: undefined });
  assert.equal(together.map(withoutId), plain.map(withoutId));
  assert.equal(batched.map(withoutId), plain.map(withoutId));
});

test('a pet the database refuses fails alone: the others of its batch are stored once each', async (context) => {
  const inserts = new PetInserts(target(context), classifyDatabaseError);
  const sentPets = pets(20, 'refusal');
  sentPets[7] = { name: REFUSED, categoryId: 1n };
  const outcomes = await Promise.allSettled(sentPets.map((pet) => inserts.insert(pet)));
  outcomes.forEach((outcome, i) => {
    if (i === 7) {
      assert.is(outcome.status, 'rejected');
      assert.match(String((outcome as PromiseRejectedResult).reason), /pet refused/);
    } else assert.is(outcome.status, 'fulfilled', `create ${i}`);
  });
  assert.equal(context.sent.slice(0, 3), [1, 9, 10], 'the batches were tried first');
  const { rows } = await sql<{ name: string; n: string }>`select name, count(*)::text as n from ${sql.table(`${SCHEMA}.petstore_pets`)}
    where name like 'refusal %' or name = ${REFUSED} group by name`.execute(context.db);
  assert.is(rows.length, 19, 'every other pet is stored');
  assert.ok(
    rows.every((row) => row.n === '1'),
    'and stored once',
  );
});

test('a batch the database cannot answer fails every create in it, and is not sent again', async (context) => {
  const lost = new Error('Connection terminated unexpectedly');
  const failingBatches: StatementRunner = {
    run: (statement, parameters, map) => (parameters.length === 1 ? Promise.reject(lost) : context.runner.run(statement, parameters, map)),
  };
  const inserts = new PetInserts(target(context, failingBatches), classifyDatabaseError);
  const outcomes = await Promise.allSettled(pets(10, 'lost').map((pet) => inserts.insert(pet)));
  assert.is(outcomes[0]!.status, 'fulfilled', 'the first went alone');
  for (const outcome of outcomes.slice(1)) assert.is((outcome as PromiseRejectedResult).reason, lost);
  assert.equal(context.sent, [1, 9], 'whether the batch was stored is unknown: no create is sent twice');
  // The way is free again afterwards.
  assert.ok(await inserts.insert(pets(1, 'after')[0]!));
});

/** A runner whose first `stuck` statements hang until `release()`; the others run on `runner`. */
function stuckFirst(runner: StatementRunner, stuck: number): StatementRunner & { release(): void } {
  const held: (() => void)[] = [];
  let calls = 0;
  return {
    run: (statement, parameters, map) => {
      if (calls++ >= stuck) return runner.run(statement, parameters, map);
      return new Promise<void>((resolve) => held.push(resolve)).then(() => runner.run(statement, parameters, map));
    },
    release: () => held.splice(0).forEach((go) => go()),
  };
}

const settledSoFar = async (promises: Promise<unknown>[]) => {
  const seen = promises.map(() => 'pending');
  promises.forEach(
    (p, i) =>
      void p.then(
        () => (seen[i] = 'fulfilled'),
        () => (seen[i] = 'rejected'),
      ),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return seen;
};

test('a stuck statement delays only its own creates: those that come after it go on without it, and are stored', async (context) => {
  const runner = stuckFirst(context.runner, 1);
  const inserts = new PetInserts(target(context, runner), classifyDatabaseError, { slowRoundMs: 20 });
  const stuck = inserts.insert(pets(1, 'stuck')[0]!);
  const later = pets(30, 'later');
  const records = await Promise.all(later.map((pet) => inserts.insert(pet)));
  assertOwnRecords(records, later);
  assert.equal(await settledSoFar([stuck]), ['pending'], 'the stuck create is still waiting for its statement');
  assert.equal(context.sent, [1, 15, 15], 'the 30 went as one round once the stuck one was slow');
  runner.release();
  assert.ok(await stuck);
});

test('at most maxRounds rounds at once; a create waiting past maxWaitMs is refused (timeout, nothing stored), never sent', async (context) => {
  const runner = stuckFirst(context.runner, 2);
  const inserts = new PetInserts(target(context, runner), classifyDatabaseError, { slowRoundMs: 10, maxRounds: 2, maxWaitMs: 300 });
  const first = inserts.insert(pets(1, 'round1')[0]!);
  const second = inserts.insert(pets(1, 'round2')[0]!); // waits 10 ms, then goes as round 2 (stuck too)
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(context.sent, [1, 1], 'two rounds, both stuck');
  const waiting = pets(5, 'waiting').map((pet) => inserts.insert(pet));
  const outcomes = await Promise.allSettled(waiting);
  for (const outcome of outcomes) {
    const reason = (outcome as PromiseRejectedResult).reason as unknown;
    assert.instance(reason, NotSentError);
    assert.equal(classifyDatabaseError(reason), { kind: 'timeout', stored: 'no' });
  }
  assert.equal(context.sent, [1, 1], 'a third round never went: the refused creates were never sent');
  runner.release();
  assert.ok((await first) && (await second));
});

test('a create that waited for a round is answered within its wait bound plus the grace, even while its statement hangs', async (context) => {
  const runner = stuckFirst(context.runner, 2);
  const inserts = new PetInserts(target(context, runner), classifyDatabaseError, { slowRoundMs: 10, maxWaitMs: 300 });
  const first = inserts.insert(pets(1, 'alone')[0]!);
  const waited = inserts.insert(pets(1, 'waited')[0]!); // goes as round 2 after 10 ms, stuck too
  const reason = await waited.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(reason, UnansweredError);
  assert.equal(classifyDatabaseError(reason), { kind: 'timeout', stored: 'maybe' });
  // Answered while both statements still hang (without the bound it would wait for them: the test would hang).
  assert.equal(await settledSoFar([first]), ['pending'], 'a create sent at once keeps its own statement bound');
  runner.release();
  assert.ok(await first);
});

test('at most maxWaiting creates wait: one more is refused at once, unsent', async (context) => {
  const runner = stuckFirst(context.runner, 1);
  const inserts = new PetInserts(target(context, runner), classifyDatabaseError, { maxWaiting: 10 });
  const first = inserts.insert(pets(1, 'first')[0]!);
  const waiting = pets(11, 'full').map((pet) => inserts.insert(pet));
  const seen = await settledSoFar(waiting);
  assert.equal(seen.filter((s) => s === 'rejected').length, 1, 'the 11th was refused at once');
  assert.instance(await waiting[10]!.catch((e: unknown) => e), NotSentError);
  runner.release();
  assert.ok(await first);
  assert.is((await Promise.all(waiting.slice(0, 10))).length, 10, 'the 10 that waited are stored');
});

test('creates waiting for a statement whose connection broke at once are still sent', async (context) => {
  const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
  let first = true;
  const firstBroken: StatementRunner = {
    run: (statement, parameters, map) => {
      if (!first) return context.runner.run(statement, parameters, map);
      first = false;
      return Promise.reject(reset);
    },
  };
  const inserts = new PetInserts(target(context, firstBroken), classifyDatabaseError);
  const outcomes = await Promise.allSettled(pets(10, 'after reset').map((pet) => inserts.insert(pet)));
  assert.is((outcomes[0] as PromiseRejectedResult).reason, reset);
  assert.ok(outcomes.slice(1).every((o) => o.status === 'fulfilled'));
  assert.equal(context.sent, [1, 9]);
});

test('creates waiting for a statement that failed for its pet alone are still sent', async (context) => {
  const inserts = new PetInserts(target(context), classifyDatabaseError);
  const sentPets = pets(10, 'after refusal');
  sentPets[0] = { name: REFUSED, categoryId: 1n };
  const outcomes = await Promise.allSettled(sentPets.map((pet) => inserts.insert(pet)));
  assert.is(outcomes[0]!.status, 'rejected');
  assert.ok(outcomes.slice(1).every((o) => o.status === 'fulfilled'));
  assert.equal(context.sent, [1, 9]);
});

/** How many insert statements on our pets table PostgreSQL ran, so far. */
async function insertStatements(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*)::text as n from ${sql.table(`${SCHEMA}.insert_statements`)}`.execute(db);
  return Number(rows[0]!.n);
}

/** 30 creates at once through `store.fetch`: their statuses, bodies without ids and Locations without ids. */
async function createTogether(store: { fetch: (request: Request) => Promise<Response> }, tag: string) {
  const responses = await Promise.all(
    pets(30, tag).map((pet, i) =>
      store.fetch(
        new Request(`${ORIGIN}/v1/pets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: `{"name":${JSON.stringify(pet.name.replace(tag, 'x'))},"categoryId":${pet.categoryId}${
            pet.status ? `,"status":"${pet.status}"` : ''
          },"n":${i}}`,
        }),
      ),
    ),
  );
  return Promise.all(
    responses.map(async (response) => {
      const body = (await response.json()) as { id: string };
      assert.is(response.headers.get('location'), `${ORIGIN}/v1/pets/${body.id}`);
      return { status: response.status, body: { ...body, id: undefined }, timing: response.headers.get('server-timing') };
    }),
  );
}

test('the store batches by default, and answers the same with batchCreates: false', async (context) => {
  const batched = createPetStore({ db: context.db, keys: [KEY], schema: SCHEMA });
  const plain = createPetStore({ db: context.db, keys: [KEY], schema: SCHEMA, batchCreates: false });
  let before = await insertStatements(context.db);
  const a = await createTogether(batched, 'store');
  const batchedStatements = (await insertStatements(context.db)) - before;
  before = await insertStatements(context.db);
  const b = await createTogether(plain, 'store');
  assert.is((await insertStatements(context.db)) - before, 30, 'batchCreates: false: one statement per create');
  assert.ok(batchedStatements < 5, `by default, 30 creates at once took ${batchedStatements} statements`);
  assert.ok(a.every((r) => r.status === 201));
  assert.equal(a, b);
});

test('a store that observes its statements (serverTiming) times each create by its own statement', async (context) => {
  const observed = createPetStore({ db: context.db, keys: [KEY], schema: SCHEMA, serverTiming: true });
  const before = await insertStatements(context.db);
  for (const { status, timing } of await createTogether(observed, 'timed')) {
    assert.is(status, 201);
    const db = /db;dur=(\d+\.\d)/.exec(timing ?? '');
    assert.ok(db && Number(db[1]) > 0, `every create's own insert is timed: ${timing}`);
  }
  assert.is((await insertStatements(context.db)) - before, 30);
});

test("a store on a pg.Pool of your own sends one statement per create (no runner, Kysely's path)", async (context) => {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL!, max: 4 });
  const db = await createPostgresDatabase(pool, { migrate: false });
  try {
    const before = await insertStatements(context.db);
    const answers = await createTogether(createPetStore({ db, keys: [KEY], schema: SCHEMA }), 'own pool');
    assert.ok(answers.every((r) => r.status === 201));
    assert.is((await insertStatements(context.db)) - before, 30);
  } finally {
    await db.destroy();
    await pool.end();
  }
});

test.run();
