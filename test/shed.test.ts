import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../src/index.js';
import { Admission } from '../src/pipeline/shed.js';
import { sharedPGlite } from './helpers/db.js';
import { KEY, ORIGIN } from './helpers/harness.js';
import { brokenDatabase, fakeDatabase, mounted, transports } from './helpers/operating.js';

/**
 * A database that holds every statement until `open()`, then answers no rows: requests keep their
 * slot as long as the test wants (a list answers 200 []). `held()` counts statements started.
 */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let held = 0;
  const db = fakeDatabase(async () => {
    held++;
    await opened;
    return { rows: [] };
  });
  return { db, open, held: () => held };
}

const auth = { authorization: `Bearer ${KEY}` };
const list = () => new Request(`${ORIGIN}/v1/pets`, { headers: auth });
const until = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 5));
};

for (const transport of transports) {
  test(`${transport.name}: past limit + queue a request is answered 503 overloaded; waiters are served in turn; health never waits`, async () => {
    const held = gate();
    let shed = 0;
    const store = createPetStore({
      db: held.db,
      keys: [KEY],
      // Health on a database of its own, as the standalone server has it: it never waits behind API work.
      health: { db: await sharedPGlite() },
      concurrency: { limit: 2, queue: 1, maxWaitMs: 30_000, onShed: () => shed++ },
    });
    await mounted(transport, store, async (fetch) => {
      const first = fetch(list());
      const second = fetch(list());
      await until(() => held.held() >= 2);
      const third = fetch(list()); // waits for a slot

      const refused = await fetch(
        new Request(`${ORIGIN}/v1/pets`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
        }),
      );
      assert.is(refused.status, 503);
      assert.is(refused.headers.get('retry-after'), '1', 'no answer in the window to go by: the least');
      assert.ok(refused.headers.get('x-request-id'), 'a refused request has its request id');
      assert.equal(await refused.json(), {
        code: 'overloaded',
        message: 'the server is at capacity, retry after Retry-After seconds',
        status: 503,
      });
      assert.is(shed, 1, 'onShed told once per refused request');
      assert.is(held.held(), 2, 'the waiting request did no database work');

      for (const [method, path] of [
        ['GET', '/v1/health'],
        ['GET', '/v1/health/'],
        ['HEAD', '/v1/health'],
        ['HEAD', '/v1/health/'],
      ] as const) {
        const started = performance.now();
        const health = await fetch(new Request(`${ORIGIN}${path}`, { method }));
        assert.is(health.status, 200, `${method} ${path} answers while every slot is held`);
        assert.ok(performance.now() - started < 5_000, `${method} ${path} at once, not after the held requests`);
      }
      assert.ok((await fetch(new Request(`${ORIGIN}/v1/openapi.json`))).ok, 'the document is never shed');

      held.open();
      assert.is((await first).status, 200);
      assert.is((await second).status, 200);
      assert.is((await third).status, 200, 'the waiter got the freed slot');
      const again = await Promise.all([1, 2, 3].map(() => fetch(list())));
      assert.equal(
        again.map((r) => r.status),
        [200, 200, 200],
      );
    });
  });
}

test('a request whose body is still arriving holds no slot', async () => {
  const store = createPetStore({ db: await sharedPGlite(), keys: [KEY], concurrency: { limit: 1, queue: 0 } });
  let push!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (push = c) });
  const slow = store.fetch(
    new Request(`${ORIGIN}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit),
  );
  push.enqueue(new TextEncoder().encode('{"name":"Slow",'));
  for (let i = 0; i < 3; i++) assert.is((await store.fetch(list())).status, 200, 'the one slot is free while the body arrives');
  push.enqueue(new TextEncoder().encode('"categoryId":1}'));
  push.close();
  assert.is((await slow).status, 201);
});

test('a request whose handling fails still leaves its slot', async () => {
  const store = createPetStore({
    db: brokenDatabase(),
    keys: [KEY],
    concurrency: { limit: 1, queue: 0 },
    onError: () => {},
  });
  for (let i = 0; i < 5; i++) assert.is((await store.fetch(list())).status, 500, 'admitted each time: the slot came back');
});

test('a freed slot goes to the waiting key that holds the fewest; a full queue refuses the heaviest key first', async () => {
  const shed: string[] = [];
  const admission = new Admission({ limit: 2, queue: 2, maxWaitMs: 30_000, onShed: (r) => void shed.push(r.url) });
  const req = (name: string) => new Request(`${ORIGIN}/${name}`);
  const order: string[] = [];
  const enter = (who: string, name: string) => {
    const entering = admission.enter(who, req(name));
    if (entering === undefined) return (order.push(name), Promise.resolve());
    return entering.then(
      () => void order.push(name),
      (error: { status: number }) => void order.push(`${name}:${error.status}`),
    );
  };
  void enter('a', 'a1');
  void enter('a', 'a2');
  const a3 = enter('a', 'a3');
  const a4 = enter('a', 'a4');
  assert.equal(order, ['a1', 'a2'], 'a holds both slots; two of its requests wait');
  const b1 = enter('b', 'b1'); // the queue is full of a's: a's newest waiter makes room
  await a4;
  assert.equal(order, ['a1', 'a2', 'a4:503']);
  assert.equal(shed, [`${ORIGIN}/a4`]);
  admission.leave('a');
  await b1;
  assert.equal(order, ['a1', 'a2', 'a4:503', 'b1'], 'b holds none: it gets the slot before a3, which came first');
  const c1 = enter('c', 'c1'); // queue: a3, c1
  const a5 = enter('a', 'a5'); // full; a (1 held + 1 waiting + 1) is not lighter than anyone: refused
  await a5;
  assert.equal(order.at(-1), 'a5:503');
  admission.leave('b');
  await c1;
  assert.equal(order.at(-1), 'c1', 'c (none held) before a (one held)');
  admission.leave('a');
  await a3;
  assert.equal(order.at(-1), 'a3');
});

test('a request that would be refused now is refused before its body is read, its refusal held 100 ms; a lighter key is not', async () => {
  const admission = new Admission({ limit: 1, queue: 1, maxWaitMs: 30_000 });
  assert.is(admission.enter('a', new Request(ORIGIN)), undefined);
  assert.is(admission.refuseAtOnce('a', new Request(ORIGIN)), undefined, 'a place is free: no refusal');
  void admission.enter('a', new Request(ORIGIN))!.catch(() => {});
  const started = performance.now();
  const refused = await admission.refuseAtOnce('a', new Request(ORIGIN))!.catch((e: { status: number }) => e);
  assert.is(refused.status, 503);
  // A lower bound only: a client retrying at once asks at most about 10 times a second.
  assert.ok(performance.now() - started >= 95, `the refusal was held ${performance.now() - started} ms`);
  const fromEnter = performance.now();
  assert.is(await admission.enter('a', new Request(ORIGIN))!.catch((e: { status: number }) => e.status), 503);
  assert.ok(performance.now() - fromEnter >= 95, 'a refusal of enter (no body) is held too');
  assert.is(admission.refuseAtOnce('b', new Request(ORIGIN)), undefined, "b would take a's waiting place");
  admission.leave('a'); // the waiter enters: no timer left
});

test('a waiter past maxWaitMs is refused, and its place freed', async () => {
  const admission = new Admission({ limit: 1, queue: 1, maxWaitMs: 50 });
  assert.is(admission.enter('a', new Request(ORIGIN)), undefined);
  const waiting = admission.enter('a', new Request(ORIGIN))!;
  const error = await waiting.then(
    () => undefined,
    (e: { status: number; headers: Record<string, string> }) => e,
  );
  assert.is(error?.status, 503);
  const next = admission.enter('a', new Request(ORIGIN));
  assert.ok(next instanceof Promise, 'the place is free again: the next one waits instead of being refused');
  admission.leave('a');
  await next;
});

test('Retry-After follows the state now: the refused per served of the last second, and falls back once that is over', async () => {
  const admission = new Admission({ limit: 1, queue: 0, maxRetryAfterSeconds: 30 });
  const retryAfter = async () =>
    admission.enter('a', new Request(ORIGIN))!.then(
      () => {
        throw new Error('admitted');
      },
      (e: { headers: Record<string, string> }) => Number(e.headers['retry-after']),
    );
  assert.is(admission.enter('a', new Request(ORIGIN)), undefined);
  admission.leave('a');
  assert.is(admission.enter('a', new Request(ORIGIN)), undefined);
  // 1 served (in the window), 7 refused: the refused need 7 turns.
  const seen: number[] = [];
  for (let i = 0; i < 7; i++) seen.push(await retryAfter());
  assert.is(seen.at(-1), 7, `refused per served: ${seen.join(',')}`);
  await new Promise((r) => setTimeout(r, 2_100));
  assert.is(await retryAfter(), 1, 'two quiet seconds later the counts are forgotten: the least');
  admission.leave('a');
});

test('wrong concurrency options fail at creation, naming the option', async () => {
  const db = await sharedPGlite();
  const wrong: [object, RegExp][] = [
    [{ limit: 0 }, /options\.concurrency\.limit must be a positive integer/],
    [{ limit: 2, retryAfterSeconds: 1.5 }, /options\.concurrency\.retryAfterSeconds/],
    [
      { limit: 2, retryAfterSeconds: 5, maxRetryAfterSeconds: 2 },
      /options\.concurrency\.maxRetryAfterSeconds must be .* at least retryAfterSeconds/,
    ],
    [{ limit: 2, queue: -1 }, /options\.concurrency\.queue must be a whole number/],
    [{ limit: 2, maxWaitMs: 0 }, /options\.concurrency\.maxWaitMs must be a positive/],
  ];
  for (const [concurrency, message] of wrong)
    assert.throws(() => createPetStore({ db, keys: [KEY], concurrency: concurrency as never }), message);
  assert.throws(() => createPetStore({ db, keys: [KEY], concurrency: 5 as never }), /options\.concurrency must be an object/);
});

test.run();
