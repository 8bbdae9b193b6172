import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHandlers } from '../adapters/msw.js';
import { createPetStore } from '../src/index.js';
import { createTestStore } from '../src/testing.js';
import { resetDatabase, sharedPGlite } from './helpers/db.js';
import { KEY } from './helpers/harness.js';

// petstore-router/msw in Node: setupServer routes the app's own fetch calls under the base URL to
// the store; every other request reaches the network untouched (here a real local server).
const auth = { authorization: `Bearer ${KEY}` };

async function withMsw(baseUrl: string, fn: () => Promise<void>): Promise<void> {
  const db = await sharedPGlite();
  await resetDatabase(db);
  const server = setupServer(...createHandlers(createPetStore({ db, keys: [KEY] }), { baseUrl }));
  server.listen({ onUnhandledRequest: 'bypass' });
  try {
    await fn();
  } finally {
    server.close();
  }
}

test('fetch under the base URL reaches the store: create, list, get, 401, 400', async () => {
  await withMsw('https://api.example.com', async () => {
    const created = await fetch('https://api.example.com/v1/pets', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    assert.is(created.status, 201);
    assert.is(created.headers.get('location'), 'https://api.example.com/v1/pets/1');
    const list = await fetch('https://api.example.com/v1/pets', { headers: auth });
    assert.equal(await list.json(), [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
    assert.is((await fetch('https://api.example.com/v1/pets/1', { headers: auth })).status, 200);
    const anonymous = await fetch('https://api.example.com/v1/pets');
    assert.is(anonymous.status, 401);
    assert.is(((await anonymous.json()) as { code: string }).code, 'unauthorized');
    const bad = await fetch('https://api.example.com/v1/pets?limit=0', { headers: auth });
    assert.is(bad.status, 400);
    // The base path itself, with or without its slash, is the store's too (a 404 Error body of its own).
    for (const path of ['/v1', '/v1/']) {
      const res = await fetch(`https://api.example.com${path}`, { headers: auth });
      assert.is(res.status, 404, path);
      assert.ok(res.headers.get('x-request-id'), `${path} answered by the store`);
    }
  });
});

test('a base URL with a path prefix and a trailing slash: the prefix is taken off for the store', async () => {
  await withMsw('https://example.com/api/', async () => {
    const res = await fetch('https://example.com/api/v1/pets', { headers: auth });
    assert.is(res.status, 200);
    assert.equal(await res.json(), []);
  });
});

test('with a path in baseUrl, Location and Link keep it, and following them reaches the handlers', async () => {
  await withMsw('https://example.com/api/', async () => {
    const headers = { ...auth, 'content-type': 'application/json' };
    for (const name of ['Rex', 'Tom']) {
      const created = await fetch('https://example.com/api/v1/pets', {
        method: 'POST',
        headers,
        body: JSON.stringify({ name, categoryId: 1 }),
      });
      assert.is(created.status, 201);
      assert.match(created.headers.get('location')!, /^https:\/\/example\.com\/api\/v1\/pets\/\d+$/);
      const again = await fetch(created.headers.get('location')!, { headers: auth });
      assert.is(((await again.json()) as { name: string }).name, name);
      // The deprecated GET names its successor in a Link too: with the prefix.
      assert.match(again.headers.get('link') ?? '', /<https:\/\/example\.com\/api\/v1\//);
    }
    const first = await fetch('https://example.com/api/v1/pets?limit=1', { headers: auth });
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    assert.match(next ?? '', /^https:\/\/example\.com\/api\/v1\/pets\?/);
    const second = await fetch(next!, { headers: auth });
    assert.equal(
      ((await second.json()) as { name: string }[]).map((p) => p.name),
      ['Tom'],
    );
  });
});

test('a test store works as it is (its .store is used); anything else is a TypeError naming .store', async () => {
  const testStore = await createTestStore();
  const server = setupServer(...createHandlers(testStore, { baseUrl: 'https://tests.example' }));
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const res = await fetch('https://tests.example/v1/pets', { headers: { authorization: `Bearer ${testStore.key}` } });
    assert.is(res.status, 200);
    assert.equal(await res.json(), []);
  } finally {
    server.close();
    await testStore.close();
  }
  for (const notAStore of [{}, { fetch: () => {} }, undefined])
    assert.throws(
      () => createHandlers(notAStore as never, { baseUrl: 'https://x.test' }),
      (e: Error) =>
        e instanceof TypeError && /createHandlers: store must be a store \(.*the \.store of createTestStore\(\)\)/.test(e.message),
    );
});

test('requests to another origin, or outside the base path, pass through untouched', async () => {
  const real = createServer((req, res) => res.end(`real ${req.method} ${req.url} ${req.headers.authorization ?? '-'}`));
  await new Promise<void>((resolve) => real.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(real.address() as AddressInfo).port}`;
  try {
    await withMsw(`${origin}/api`, async () => {
      assert.is(await (await fetch(`${origin}/elsewhere?x=1`, { headers: auth })).text(), `real GET /elsewhere?x=1 Bearer ${KEY}`);
      assert.is(await (await fetch(`${origin}/api/other`)).text(), 'real GET /api/other -');
      assert.is((await fetch(`${origin}/api/v1/pets`, { headers: auth })).status, 200);
    });
  } finally {
    real.close();
  }
});

test('a baseUrl that is not an absolute URL fails at creation, naming the option', async () => {
  const store = createPetStore({ db: await sharedPGlite(), keys: [KEY] });
  assert.throws(() => createHandlers(store, { baseUrl: '/api' }), /options\.baseUrl/);
  assert.throws(() => createHandlers(store, { baseUrl: 'https://x.test/?a=1' }), /options\.baseUrl/);
});

test.run();
