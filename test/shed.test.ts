import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../src/index.js';
import { sharedPGlite } from './helpers/db.js';
import { KEY, ORIGIN } from './helpers/harness.js';
import { mounted, transports } from './helpers/operating.js';

/** A key verifier that holds every request until `open()`: requests stay in flight as long as the test wants. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let verified = 0;
  const keys = async (key: string) => {
    verified++;
    await opened;
    return key === KEY;
  };
  return { keys, open, verified: () => verified };
}

const auth = { authorization: `Bearer ${KEY}` };

for (const transport of transports) {
  test(`${transport.name}: past concurrency.limit a request is answered 503 overloaded at once, before auth; health still answers`, async () => {
    const held = gate();
    let shed = 0;
    const store = createPetStore({ db: await sharedPGlite(), keys: held.keys, concurrency: { limit: 2, onShed: () => shed++ } });
    await mounted(transport, store, async (fetch) => {
      const first = fetch(new Request(`${ORIGIN}/v1/pets`, { headers: auth }));
      const second = fetch(new Request(`${ORIGIN}/v1/pets`, { headers: auth }));
      while (held.verified() < 2) await new Promise((r) => setTimeout(r, 5));

      const started = performance.now();
      const refused = await fetch(
        new Request(`${ORIGIN}/v1/pets`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
        }),
      );
      assert.ok(performance.now() - started < 5_000, 'answered while the others are held (they never end on their own)');
      assert.is(refused.status, 503);
      assert.is(refused.headers.get('retry-after'), '1');
      assert.ok(refused.headers.get('x-request-id'), 'a refused request has its request id');
      assert.equal(await refused.json(), {
        code: 'overloaded',
        message: 'the server is at capacity, retry after Retry-After seconds',
        status: 503,
      });
      assert.is(held.verified(), 2, 'the refused request never reached the key check');
      assert.is(shed, 1, 'onShed told once per refused request');

      const health = await fetch(new Request(`${ORIGIN}/v1/health`));
      assert.is(health.status, 200, 'health is never refused');

      held.open();
      assert.is((await first).status, 200);
      assert.is((await second).status, 200);
      // The count went down with the answers: the next requests are served.
      const again = await Promise.all([1, 2].map(() => fetch(new Request(`${ORIGIN}/v1/pets`, { headers: auth }))));
      assert.equal(
        again.map((r) => r.status),
        [200, 200],
      );
      assert.is(shed, 1);
    });
  });
}

test('a request whose handling fails still leaves the count (no slot is lost)', async () => {
  let calls = 0;
  const store = createPetStore({
    db: await sharedPGlite(),
    keys: () => {
      calls++;
      throw new Error('verifier failed');
    },
    concurrency: { limit: 1 },
    onError: () => {},
  });
  for (let i = 0; i < 5; i++) {
    const res = await store.fetch(new Request(`${ORIGIN}/v1/pets`, { headers: auth }));
    assert.is(res.status, 500);
  }
  assert.is(calls, 5, 'every request was admitted: the slot came back each time');
});

test('Retry-After grows while refusals outnumber a quarter of the served requests, and shrinks back when they do not', async () => {
  const db = await sharedPGlite();
  let held = gate();
  const store = createPetStore({ db, keys: (key) => held.keys(key), concurrency: { limit: 1, maxRetryAfterSeconds: 30 } });
  const get = () => store.fetch(new Request(`${ORIGIN}/v1/pets`, { headers: auth }));
  const retryAfter = async () => {
    const res = await get();
    assert.is(res.status, 503);
    return res.headers.get('retry-after');
  };
  let holding = get();
  while (held.verified() < 1) await new Promise((r) => setTimeout(r, 5));
  for (let i = 0; i < 20; i++) assert.is(await retryAfter(), '1', 'the least Retry-After first');
  await new Promise((r) => setTimeout(r, 1_050));
  // 21 refused for 1 served in the window before: (1 + 21) / 1.25 = 17.6 times as long, at most doubled per window.
  assert.is(await retryAfter(), '2');
  await new Promise((r) => setTimeout(r, 1_050));
  assert.is(await retryAfter(), '4', 'doubled again: 1 refused, 0 served in the window before');
  held.open();
  assert.is((await holding).status, 200);

  held = gate();
  held.open();
  for (let i = 0; i < 40; i++) assert.is((await get()).status, 200);
  const reopened = gate();
  held = reopened;
  holding = get();
  while (reopened.verified() < 1) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 1_050));
  // 1 refused for 41 served: below half the target, one second less.
  assert.is(await retryAfter(), '3');
  reopened.open();
  assert.is((await holding).status, 200);
});

test('wrong concurrency options fail at creation, naming the option', async () => {
  const db = await sharedPGlite();
  assert.throws(
    () => createPetStore({ db, keys: [KEY], concurrency: { limit: 0 } }),
    /options\.concurrency\.limit must be a positive integer/,
  );
  assert.throws(
    () => createPetStore({ db, keys: [KEY], concurrency: { limit: 2, retryAfterSeconds: 1.5 } }),
    /options\.concurrency\.retryAfterSeconds/,
  );
  assert.throws(() => createPetStore({ db, keys: [KEY], concurrency: 5 as never }), /options\.concurrency must be an object/);
  assert.throws(
    () => createPetStore({ db, keys: [KEY], concurrency: { limit: 2, retryAfterSeconds: 5, maxRetryAfterSeconds: 2 } }),
    /options\.concurrency\.maxRetryAfterSeconds must be .* at least retryAfterSeconds/,
  );
});

test.run();
