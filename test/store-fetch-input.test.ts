// store.fetch is called like the global fetch (issue 38): a Request, or an absolute URL (string or
// URL object) with init; a runtime's second argument after a Request is ignored; anything else is
// refused with a TypeError that says what to pass.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type PetStore, createPetStore } from '../src/index.js';
import { resetDatabase, sharedPGlite } from './helpers/db.js';
import { KEY } from './helpers/harness.js';

const test = suite('store.fetch input');
const auth = { authorization: `Bearer ${KEY}` };
let store: PetStore;
test.before(async () => {
  const db = await sharedPGlite();
  await resetDatabase(db);
  store = createPetStore({ db, keys: [KEY] });
});

test('a string URL with init, as the global fetch takes it', async () => {
  const res = await store.fetch('http://x/v1/pets', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });
  assert.is(res.status, 201);
  assert.is(res.headers.get('location'), 'http://x/v1/pets/1');
});

test('a URL object, and a Request followed by a runtime argument (Deno info, Worker env) taken as nothing', async () => {
  assert.equal(await (await store.fetch(new URL('http://x/v1/pets/1'), { headers: auth })).json(), {
    id: 1,
    name: 'Rex',
    categoryId: 1,
    status: 'available',
  });
  const env = { method: 'DELETE', headers: {} } as unknown as RequestInit;
  const res = await store.fetch(new Request('http://x/v1/pets', { headers: auth }), env);
  assert.is(res.status, 200);
});

test('a path alone, or a non-request, is a TypeError saying what to pass', async () => {
  for (const [input, pattern] of [
    ['/v1/pets', /got "\/v1\/pets", not an absolute URL: pass e\.g\. 'http:\/\/localhost\/v1\/pets'/],
    [undefined, /store\.fetch takes a Request, or a URL \(string or URL object\) and init like the global fetch; got undefined/],
    [42, /got number/],
  ] as const) {
    const error = await store.fetch(input as string).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.instance(error, TypeError, String(input));
    assert.match((error as Error).message, pattern);
  }
  // As the global fetch: a request that cannot be built is the Request constructor's TypeError.
  await store.fetch('http://x/v1/pets', { method: 'GET', body: 'x' }).then(
    () => assert.unreachable(),
    (e: unknown) => assert.instance(e, TypeError),
  );
});

test.run();
