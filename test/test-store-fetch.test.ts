// The test store's fetch is called like the global fetch (issue 24 item 6): a Request, a URL
// string or URL object with init, and a path alone, resolved against TEST_ORIGIN.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TEST_ORIGIN, type TestStore, createTestStore } from '../src/testing.js';

const test = suite('test store fetch');
let t: TestStore;
test.before(async () => {
  t = await createTestStore();
});
test.after(() => t.close());

const auth = () => ({ authorization: `Bearer ${t.key}` });

test('fetch(url, init) with a string, as the global fetch takes it', async () => {
  const res = await t.fetch('http://test/v1/pets', {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });
  assert.is(res.status, 201);
  assert.is(res.headers.get('location'), 'http://test/v1/pets/1');
});

test('fetch(path, init): resolved against TEST_ORIGIN (http://localhost)', async () => {
  assert.is(TEST_ORIGIN, 'http://localhost');
  const res = await t.fetch('/v1/pets', {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: '{"name":"Tom","categoryId":2}',
  });
  assert.is(res.status, 201);
  assert.is(res.headers.get('location'), 'http://localhost/v1/pets/2');
  const list = await t.fetch('/v1/pets?limit=1', { headers: auth() });
  assert.is(list.headers.get('link')?.startsWith('<http://localhost/v1/pets?'), true);
});

test('fetch(URL object, init) and fetch(Request) and fetch(Request, init) as the global fetch', async () => {
  const byUrl = await t.fetch(new URL('/v1/pets', 'http://test'), { headers: auth() });
  assert.is(byUrl.status, 200);
  assert.is(((await byUrl.json()) as unknown[]).length, 2);
  assert.is((await t.fetch(new Request('http://test/v1/pets', { headers: auth() }))).status, 200);
  // init overrides the Request's own parts, as with the global fetch: here no key, so a 401.
  assert.is((await t.fetch(new Request('http://test/v1/pets', { headers: auth() }), { headers: {} })).status, 401);
});

test('a request that cannot be built rejects with a TypeError, as with the global fetch', async () => {
  try {
    await t.fetch('/v1/pets', { method: 'GET', body: 'x' });
    assert.unreachable('expected a rejection');
  } catch (error) {
    assert.instance(error, TypeError);
  }
});

test.run();
