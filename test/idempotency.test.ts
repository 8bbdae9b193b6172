import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Database } from '../src/index.js';
import { createPostgresDatabase } from '../src/pg.js';
import { idempotent } from '../src/routes/idempotency.js';
import { IDEMPOTENCY_CLAIM_TIMEOUT_MS, claimIdempotencyKey, completeIdempotencyKey } from '../src/storage/idempotency.js';
import { contractOf } from '../src/drivers/database.js';
import { createRepositories } from '../src/storage/repositories.js';
import { pgbouncerUrl, resetDatabase, sharedPGlite, sharedPgBouncer, sharedPostgres } from './helpers/db.js';
import { type Call, KEY, inProcess, openStore } from './helpers/harness.js';
import { databaseUrl, skippedSuite } from './helpers/postgres-test.js';

const OTHER_KEY = 'other-key-9876543210';
const T0 = new Date('2027-03-01T12:00:00Z');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

async function petCount(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('petstore_pets')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function keyRows(db: Kysely<Database>) {
  return db.selectFrom('petstore_idempotency_keys').selectAll().execute();
}

const post = (call: Call, body: string, key?: string, headers: Record<string, string> = {}) =>
  call('/v1/pets', { method: 'POST', body, headers: key === undefined ? headers : { 'idempotency-key': key, ...headers } });

async function assertError(res: Response, status: number, code: string) {
  assert.is(res.status, status);
  const body = await res.json();
  assert.is(body.status, status);
  assert.is(body.code, code);
  assert.type(body.message, 'string');
  return body;
}

/** The same tests on PGlite and on PostgreSQL. */
function idempotencySuite(name: string, getDb: () => Promise<Kysely<Database>>, skipped = false) {
  const test = skipped ? skippedSuite(suite(`idempotency (${name})`)) : suite(`idempotency (${name})`);
  let db: Kysely<Database>;
  let now: Date;
  let call: Call;

  test.before(async () => {
    db = await getDb();
  });
  test.before.each(async () => {
    await resetDatabase(db);
    now = T0;
    ({ call } = await openStore(inProcess, db, { keys: [KEY, OTHER_KEY], now: () => now }));
  });

  const rex = JSON.stringify({ name: 'Rex', categoryId: 7 });

  test('a retry with the same key and body replays the answer: same id, body and Location, one pet', async () => {
    const first = await post(call, rex, 'k-1');
    assert.is(first.status, 201);
    assert.is(first.headers.get('idempotent-replayed'), null);
    const firstBody = await first.text();
    const second = await post(call, rex, 'k-1');
    assert.is(second.status, 201);
    assert.is(second.headers.get('idempotent-replayed'), 'true');
    assert.is(await second.text(), firstBody);
    assert.is(second.headers.get('location'), first.headers.get('location'));
    assert.is(second.headers.get('content-type'), first.headers.get('content-type'));
    assert.is(await petCount(db), 1);
  });

  test('the fingerprint is of the validated NewPet: key order, spaces, unknown fields and default status do not matter', async () => {
    const first = await post(call, '{"name":"Rex","categoryId":7}', 'k-eq');
    const same = await post(call, ' { "categoryId" : 7 , "status":"available", "name":"Rex", "color":"red" } ', 'k-eq');
    assert.is(same.status, 201);
    assert.is(same.headers.get('idempotent-replayed'), 'true');
    assert.is(await same.text(), await first.text());
    assert.is(await petCount(db), 1);
  });

  test('the same key with another body is a 422 and creates nothing', async () => {
    assert.is((await post(call, rex, 'k-2')).status, 201);
    await assertError(await post(call, JSON.stringify({ name: 'Rex', categoryId: 8 }), 'k-2'), 422, 'unprocessable_content');
    await assertError(
      await post(call, JSON.stringify({ name: 'Rex', categoryId: 7, status: 'sold' }), 'k-2'),
      422,
      'unprocessable_content',
    );
    assert.is(await petCount(db), 1);
  });

  test('10 identical requests at once: exactly one pet; the others replay it or get 409', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(call, rex, 'k-burst')));
    const bodies = await Promise.all(answers.map((r) => r.json()));
    assert.is(await petCount(db), 1);
    const created = bodies.filter((_, i) => answers[i]!.status === 201);
    assert.ok(created.length >= 1);
    for (const b of created) assert.equal(b, created[0]);
    answers.forEach((r, i) => {
      if (r.status === 201) return;
      assert.is(r.status, 409);
      assert.is(bodies[i].code, 'conflict');
      assert.is(r.headers.get('retry-after'), '1');
    });
  });

  test('keys are scoped per API key: the same Idempotency-Key under two API keys makes two pets', async () => {
    const mine = await post(call, rex, 'shared');
    const theirs = await post(call, rex, 'shared', { authorization: `Bearer ${OTHER_KEY}` });
    assert.is(mine.status, 201);
    assert.is(theirs.status, 201);
    assert.is.not((await mine.json()).id, (await theirs.json()).id);
    assert.is(await petCount(db), 2);
  });

  test('the principal stored is the SHA-256 of the API key, never the key', async () => {
    await post(call, rex, 'k-principal');
    const rows = await keyRows(db);
    assert.is(rows.length, 1);
    assert.is(rows[0]!.principal, sha256(KEY));
    assert.not.ok(JSON.stringify(rows).includes(KEY));
  });

  test('a key expires after idempotencyTtlMs (by the injected clock): then it creates again', async () => {
    ({ call } = await openStore(inProcess, db, { keys: [KEY], now: () => now, idempotencyTtlMs: 60_000 }));
    const first = await (await post(call, rex, 'k-ttl')).json();
    now = new Date(T0.getTime() + 59_999);
    assert.equal(await (await post(call, rex, 'k-ttl')).json(), first);
    now = new Date(T0.getTime() + 60_000);
    const again = await post(call, JSON.stringify({ name: 'Other', categoryId: 1 }), 'k-ttl');
    assert.is(again.status, 201);
    assert.is(again.headers.get('idempotent-replayed'), null);
    assert.is(await petCount(db), 2);
  });

  test('expired rows are purged a few at a time by later claims', async () => {
    const old = new Date(T0.getTime() - 1000);
    await db
      .insertInto('petstore_idempotency_keys')
      .values(
        Array.from({ length: 15 }, (_, i) => ({
          principal: 'p',
          idempotency_key: `old-${i}`,
          fingerprint: 'f',
          state: 'completed' as const,
          claim_id: `c${i}`,
          claimed_at: old,
          expires_at: old,
          response_status: 201,
          response_body: '{}',
          response_location: null,
        })),
      )
      .execute();
    await post(call, rex, 'k-purge-1');
    assert.is((await keyRows(db)).length, 1 + 5); // ours + 15 - 10
    await post(call, rex, 'k-purge-2');
    assert.is((await keyRows(db)).length, 2);
  });

  test('an in-flight claim answers 409 until it is old enough to count as abandoned', async () => {
    await db
      .insertInto('petstore_idempotency_keys')
      .values({
        principal: sha256(KEY),
        idempotency_key: 'k-crash',
        fingerprint: 'unknown',
        state: 'in_flight',
        claim_id: 'crashed-process',
        claimed_at: T0,
        expires_at: new Date(T0.getTime() + 86_400_000),
        response_status: null,
        response_body: null,
        response_location: null,
      })
      .execute();
    // Another body than the crashed one: still 422 (the key is misused), the same: 409.
    await assertError(await post(call, rex, 'k-crash'), 422, 'unprocessable_content');
    await post(call, rex, 'k-probe'); // learn the fingerprint of `rex`, then pretend the crash sent it
    const probe = (await keyRows(db)).find((r) => r.idempotency_key === 'k-probe')!;
    await db.deleteFrom('petstore_idempotency_keys').where('idempotency_key', '=', 'k-probe').execute();
    await db.deleteFrom('petstore_pets').execute();
    await db.updateTable('petstore_idempotency_keys').set({ fingerprint: probe.fingerprint }).execute();
    await assertError(await post(call, rex, 'k-crash'), 409, 'conflict');
    now = new Date(T0.getTime() + IDEMPOTENCY_CLAIM_TIMEOUT_MS - 1);
    assert.is((await post(call, rex, 'k-crash')).status, 409);
    now = new Date(T0.getTime() + IDEMPOTENCY_CLAIM_TIMEOUT_MS);
    const taken = await post(call, rex, 'k-crash');
    assert.is(taken.status, 201);
    assert.is(await petCount(db), 1);
    assert.is((await post(call, rex, 'k-crash')).headers.get('idempotent-replayed'), 'true');
  });

  test('a slow request whose claim was taken over cannot complete (fenced by claim id)', async () => {
    const input = { principal: 'p', key: 'k-fence', fingerprint: 'f', now: T0, ttlMs: 86_400_000 };
    const a = await claimIdempotencyKey(db, input);
    assert.is(a.outcome, 'claimed');
    assert.is((await claimIdempotencyKey(db, input)).outcome, 'in_flight');
    const b = await claimIdempotencyKey(db, { ...input, now: new Date(T0.getTime() + IDEMPOTENCY_CLAIM_TIMEOUT_MS) });
    assert.is(b.outcome, 'claimed');
    const response = { status: 201, body: '{}', location: null };
    if (a.outcome !== 'claimed' || b.outcome !== 'claimed') throw new Error('unreachable');
    assert.is(await completeIdempotencyKey(db, { principal: 'p', key: 'k-fence', claimId: a.claimId }, response), false);
    assert.is(await completeIdempotencyKey(db, { principal: 'p', key: 'k-fence', claimId: b.claimId }, response), true);
  });

  test('when the work fails the claim is released and nothing is stored: a retry runs', async () => {
    const repositories = createRepositories(contractOf(db), { schema: undefined, batchCreates: false });
    const req = { store: { ...repositories, now: () => now, idempotencyTtlMs: 60_000 }, principal: 'p' } as unknown as Parameters<
      typeof idempotent
    >[0];
    const failing = () =>
      idempotent(req, 'k-fail', 'f', async (tx) => {
        await tx.pets.insert({ name: 'ghost', categoryId: 1n, status: 'available' });
        throw new Error('boom');
      });
    await failing().then(
      () => assert.unreachable(),
      (e: Error) => assert.is(e.message, 'boom'),
    );
    assert.is(await petCount(db), 0, 'the pet insert was rolled back with the transaction');
    assert.is((await keyRows(db)).length, 0);
    const ok = await idempotent(req, 'k-fail', 'f', async () => ({ status: 201, body: '{"ok":true}', location: null }));
    assert.is(ok.status, 201);
  });

  test('Idempotency-Key syntax: 1 to 255 visible ASCII characters, one header, quoted form accepted', async () => {
    for (const bad of ['', 'a b', 'x'.repeat(256), 'caf\u00e9', 'a\tb', 'k1, k2']) {
      const body = await assertError(await post(call, rex, bad), 400, 'invalid_request');
      assert.equal(body.details, [{ path: 'Idempotency-Key', message: 'must be one header of 1 to 255 visible ASCII characters' }], bad);
    }
    const twice = await call('/v1/pets', {
      method: 'POST',
      body: rex,
      headers: [
        ['idempotency-key', 'a'],
        ['idempotency-key', 'a'],
      ],
    });
    await assertError(twice, 400, 'invalid_request');
    assert.is(await petCount(db), 0);
    assert.is((await post(call, rex, 'x'.repeat(255))).status, 201);
    const quoted = await post(call, rex, '"8e03978e-40d5"');
    const bare = await post(call, rex, '8e03978e-40d5');
    assert.is(bare.headers.get('idempotent-replayed'), 'true');
    assert.is(await bare.text(), await quoted.text());
  });

  test('order: body transport errors first, then one 400 naming the key and every bad field; nothing is claimed', async () => {
    await assertError(await post(call, '{"name":', 'a b'), 400, 'invalid_json');
    await assertError(await post(call, rex, 'a b', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    const both = await assertError(await post(call, '{"name":"","categoryId":1.5}', 'a b'), 400, 'invalid_request');
    assert.equal(
      both.details.map((d: { path: string }) => d.path),
      ['Idempotency-Key', 'name', 'categoryId'],
    );
    await assertError(await post(call, '{"name":""}', 'k-later'), 400, 'invalid_request');
    assert.is((await keyRows(db)).length, 0, 'a rejected request claims nothing');
    assert.is((await post(call, rex, 'k-later')).status, 201, 'the key is still free for the corrected request');
  });

  test('without the header nothing changes: each POST adds a pet, no key row', async () => {
    await post(call, rex);
    await post(call, rex);
    assert.is(await petCount(db), 2);
    assert.is((await keyRows(db)).length, 0);
  });

  test('401 comes before any key handling', async () => {
    const res = await call('/v1/pets', { method: 'POST', body: rex, anonymous: true, headers: { 'idempotency-key': 'a b' } });
    await assertError(res, 401, 'unauthorized');
  });

  return test;
}

idempotencySuite('PGlite', sharedPGlite).run();

/** Two stores on two Kysely instances (two pools): two stateless processes sharing one database. */
function acrossTwoProcesses(name: string, url: string | undefined, shared: Promise<Kysely<Database>> | undefined, destroyShared: boolean) {
  // Outside CI without a database URL its tests are registered as skipped, its hooks never run.
  const two =
    url && shared ? suite(`idempotency across two processes (${name})`) : skippedSuite(suite(`idempotency across two processes (${name})`));
  let a: Kysely<Database>;
  let b: Kysely<Database>;
  two.before(async () => {
    a = await shared!;
    b = await createPostgresDatabase(url!);
  });
  two.before.each(async () => {
    await resetDatabase(a);
  });
  two.after(async () => {
    await b.destroy();
    if (destroyShared) await a.destroy();
  });

  const rex = JSON.stringify({ name: 'Rex', categoryId: 7 });
  two('a key used on one process replays on the other; another body is a 422 there', async () => {
    const one = (await openStore(inProcess, a)).call;
    const other = (await openStore(inProcess, b)).call;
    const first = await post(one, rex, 'k-x');
    const second = await post(other, rex, 'k-x');
    assert.is(second.status, 201);
    assert.is(second.headers.get('idempotent-replayed'), 'true');
    assert.is(await second.text(), await first.text());
    await assertError(await post(other, JSON.stringify({ name: 'Max', categoryId: 7 }), 'k-x'), 422, 'unprocessable_content');
    assert.is(await petCount(a), 1);
  });

  two('20 identical requests at once spread over both processes: exactly one pet', async () => {
    const one = (await openStore(inProcess, a)).call;
    const other = (await openStore(inProcess, b)).call;
    for (let round = 0; round < 5; round++) {
      const key = `k-race-${round}`;
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(i % 2 ? one : other, rex, key)));
      const statuses = answers.map((r) => r.status);
      assert.ok(
        statuses.every((s) => s === 201 || s === 409),
        String(statuses),
      );
      const ids = new Set(await Promise.all(answers.filter((r) => r.status === 201).map(async (r) => (await r.json()).id)));
      assert.is(ids.size, 1);
    }
    assert.is(await petCount(a), 5);
  });
  return two;
}

// Through PgBouncer in transaction mode (default settings, plain URL): the create runs in a
// transaction while other statements of the pool are named, and concurrent claims meet backends
// that other clients prepared statements on. Outside CI without the URLs, registered as skipped.
const pooled = sharedPgBouncer();
idempotencySuite('PostgreSQL through PgBouncer', () => pooled!, !pooled).run();
acrossTwoProcesses('PostgreSQL through PgBouncer', pgbouncerUrl(), pooled, false).run();

const postgres = sharedPostgres();
idempotencySuite('PostgreSQL', () => postgres!, !postgres).run();
acrossTwoProcesses('PostgreSQL', databaseUrl(), postgres, true).run();
