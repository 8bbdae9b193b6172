import * as assert from 'uvu/assert';
import { createPetStore } from '../../src/index.js';
import { KEY } from '../helpers/harness.js';
import { type BehaviourRun, area, createPet, expectError, withStore } from './context.js';

const POLICY = '"default";q=3;w=60';
const OTHER_KEY = 'another-key-9876543210';

/** A clock the test moves: 17 s into a 60 s window (epoch seconds 1_800_000_000 is a multiple of 60). */
function clock(seconds = 1_800_000_017) {
  let now = seconds * 1000;
  return { now: () => new Date(now), set: (s: number) => (now = s * 1000) };
}

function assertCounted(res: Response, remaining: number, seconds: number): void {
  assert.is(res.headers.get('ratelimit-policy'), POLICY);
  assert.is(res.headers.get('ratelimit'), `"default";r=${remaining};t=${seconds}`);
}

/** Decisions, "rate limits": per key, after authentication, every operation, shared through the database. */
export function rateLimitBehaviour(run: BehaviourRun): void {
  const test = area(run, 'rate limits');

  test('off by default: no RateLimit fields, no 429', async ({ call }) => {
    for (let i = 0; i < 5; i++) {
      const res = await call('/v1/pets');
      assert.is(res.status, 200);
      assert.is(res.headers.get('ratelimit'), null);
      assert.is(res.headers.get('ratelimit-policy'), null);
    }
  });

  test('LIMIT answers per window carry the fields; then 429 rate_limited with Retry-After = t; a new window admits again', async ({
    db,
  }) => {
    const time = clock();
    await withStore(run, db, { rateLimit: { limit: 3, windowSeconds: 60 }, now: time.now }, async (call) => {
      for (const remaining of [2, 1, 0]) assertCounted(await call('/v1/pets'), remaining, 43);
      time.set(1_800_000_030);
      const limited = await call('/v1/pets');
      assertCounted(limited, 0, 30);
      assert.is(limited.headers.get('retry-after'), '30');
      const err = await expectError(limited, 429, 'rate_limited');
      assert.not.match(err.message, new RegExp(KEY));
      time.set(1_800_000_060);
      const next = await call('/v1/pets');
      assert.is(next.status, 200);
      assertCounted(next, 2, 60);
    });
  });

  test('every operation counts, errors included, and carries the fields; getPet keeps its deprecation headers on a 429', async ({ db }) => {
    const time = clock();
    await withStore(run, db, { rateLimit: { limit: 3, windowSeconds: 60 }, now: time.now }, async (call) => {
      const pet = await createPet(call, '{"name":"Rex","categoryId":1}');
      const missing = await call('/v1/pets/999');
      assertCounted(missing, 1, 43);
      await expectError(missing, 404, 'not_found');
      const invalid = await call('/v1/store/orders?limit=0');
      assertCounted(invalid, 0, 43);
      await expectError(invalid, 400, 'invalid_request');
      const limited = await call(`/v1/pets/${pet.id}`);
      assert.is(limited.headers.get('sunset'), 'Thu, 05 Dec 2030 00:00:00 GMT');
      await expectError(limited, 429, 'rate_limited');
      await expectError(await call('/v1/pets', { method: 'POST', body: '{"name":"Tom","categoryId":1}' }), 429, 'rate_limited');
      const head = await call('/v1/pets', { method: 'HEAD' });
      assert.is(head.status, 429);
      assert.is(head.headers.get('retry-after'), '43');
      assertCounted(head, 0, 43);
    });
  });

  test('a 401 is never counted; each key has its own count; the public document is not counted', async ({ db }) => {
    const time = clock();
    await withStore(run, db, { keys: [KEY, OTHER_KEY], rateLimit: { limit: 3, windowSeconds: 60 }, now: time.now }, async (call) => {
      for (let i = 0; i < 5; i++) {
        const res = await call('/v1/pets', { headers: { authorization: 'Bearer wrong-key' } });
        assert.is(res.headers.get('ratelimit'), null);
        await expectError(res, 401, 'unauthorized');
      }
      const openapi = await call('/v1/openapi.json', { anonymous: true });
      assert.is(openapi.status, 200);
      assert.is(openapi.headers.get('ratelimit'), null);
      for (const remaining of [2, 1, 0]) assertCounted(await call('/v1/pets'), remaining, 43);
      await expectError(await call('/v1/pets'), 429, 'rate_limited');
      assertCounted(await call('/v1/pets', { headers: { authorization: `Bearer ${OTHER_KEY}` } }), 2, 43);
    });
  });

  test('concurrent requests of one key: exactly LIMIT are admitted', async ({ db }) => {
    const time = clock();
    await withStore(run, db, { rateLimit: { limit: 10, windowSeconds: 60 }, now: time.now }, async (call) => {
      const answers = await Promise.all(Array.from({ length: 25 }, () => call('/v1/pets')));
      const statuses = answers.map((r) => r.status);
      assert.is(statuses.filter((s) => s === 200).length, 10);
      assert.is(statuses.filter((s) => s === 429).length, 15);
      const remaining = answers.filter((r) => r.status === 200).map((r) => /r=(\d+)/.exec(r.headers.get('ratelimit') ?? '')![1]);
      assert.equal(remaining.sort(), ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    });
  });

  test('a rate limit that is not two positive integers is refused at creation', async ({ db }) => {
    for (const rateLimit of [
      { limit: 0, windowSeconds: 60 },
      { limit: 5, windowSeconds: 0.5 },
      { limit: Number.NaN, windowSeconds: 1 },
      {},
    ]) {
      assert.throws(() => createPetStore({ db, keys: [KEY], rateLimit: rateLimit as never }), /rateLimit/);
    }
  });

  test.run();
}
