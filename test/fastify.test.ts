import Fastify, { type FastifyInstance } from 'fastify';
import { createPetStore, type PetStore } from 'petstore-router';
import { petStorePlugin } from 'petstore-router/fastify';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resetDatabase, sharedPGlite } from './helpers/db.js';

// Issue 24 item 2: the Fastify plugin entry, through its public name, on a real socket.
const KEY = 'fastify-key-0123456789';
const auth = { authorization: `Bearer ${KEY}` };
const json = { ...auth, 'content-type': 'application/json' };

/** fetch that fails instead of hanging: a request stuck on a consumed body is the bug we guard. */
const get = (url: string, init: RequestInit = {}) => fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });

async function hostApp(store: PetStore, prefix?: string): Promise<{ app: FastifyInstance; origin: string }> {
  const app = Fastify();
  app.post('/api/echo', (request, reply) => reply.send(request.body));
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ host: 'fastify' }));
  await app.register(petStorePlugin, prefix === undefined ? { store } : { store, prefix });
  return { app, origin: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

const test = suite('fastify plugin');
let store: PetStore;
test.before(async () => {
  store = createPetStore({ db: await sharedPGlite(), keys: [KEY], basePath: '/api/v1' });
});
test.before.each(async () => resetDatabase(await sharedPGlite()));

for (const prefix of ['/api', undefined]) {
  test(`register(petStorePlugin, { store${prefix ? `, prefix: '${prefix}'` : ''} }): 201 with Location /api/v1/pets/{id}, exact int64, host routes and 404 untouched`, async () => {
    const { app, origin } = await hostApp(store, prefix);
    try {
      const created = await get(`${origin}/api/v1/pets`, {
        method: 'POST',
        headers: json,
        body: '{"name":"Big","categoryId":9007199254740993}',
      });
      assert.is(created.status, 201);
      const text = await created.text();
      assert.match(text, /"categoryId":9007199254740993/, 'the store read the bytes, not Fastify');
      assert.is(created.headers.get('location'), `${origin}/api/v1/pets/${/"id":(\d+)/.exec(text)![1]}`);
      assert.is((await get(`${origin}/api/v1`, { headers: auth })).status, 404, "the base path itself is the store's");
      assert.is((await (await get(`${origin}/api/v1/nothing`, { headers: auth })).json()).code, 'not_found');
      const bad = await get(`${origin}/api/v1/pets`, { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: 'x' });
      assert.is(bad.status, 415, "the store's own answer");
      const big = await get(`${origin}/api/v1/pets`, { method: 'POST', headers: json, body: `{"name":"${'x'.repeat(70_000)}"}` });
      assert.is(big.status, 413);
      const echo = await get(`${origin}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      assert.equal(await echo.json(), { a: 1 }, "the host's routes keep Fastify's JSON parser");
      for (const path of ['/api/elsewhere', '/api/v10', '/v1/pets']) {
        const res = await get(`${origin}${path}`, { headers: auth });
        assert.is(res.status, 404, path);
        assert.equal(await res.json(), { host: 'fastify' }, `${path}: the host's not-found handler`);
      }
    } finally {
      await app.close();
    }
  });
}

test('a prefix outside the base path, or no store, fails at registration with what to pass', async () => {
  const app = Fastify();
  try {
    await app.register(petStorePlugin, { store, prefix: '/other' });
    assert.unreachable('registered');
  } catch (error) {
    assert.match(
      String(error),
      /petstore-router: petStorePlugin: the prefix must be the start of the store's basePath "\/api\/v1" \(got "\/other"\): create the store with basePath: "\/other\/api\/v1"/,
    );
  }
  const again = Fastify();
  try {
    await again.register(petStorePlugin, {} as never);
    assert.unreachable('registered');
  } catch (error) {
    assert.match(
      String(error),
      /petStorePlugin: options\.store must be a store .* \(got undefined\): app\.register\(petStorePlugin, \{ store/,
    );
  }
});

test('a host hook that read the body: 500 body_already_parsed that says why, logged once', async () => {
  const app = Fastify();
  // e.g. an audit hook reading the raw stream
  app.addHook('onRequest', (request, _reply, done) => void request.raw.on('end', () => done()).resume());
  await app.register(petStorePlugin, { store, prefix: '/api' });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const logged = console.error;
  const lines: string[] = [];
  console.error = (line: string) => void lines.push(line);
  try {
    for (let i = 0; i < 2; i++) {
      const res = await get(`${origin}/api/v1/pets`, { method: 'POST', headers: json, body: '{"name":"Rex","categoryId":1}' });
      assert.is(res.status, 500);
      const body = await res.json();
      assert.is(body.code, 'body_already_parsed');
      assert.match(body.message, /already read by a hook of the Fastify app/);
    }
  } finally {
    console.error = logged;
    await app.close();
  }
  assert.is(lines.length, 1);
});

test.run();
