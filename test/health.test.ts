import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../src/index.js';
import { sharedPGlite } from './helpers/db.js';
import { KEY, ORIGIN } from './helpers/harness.js';
import { hungDatabase, mounted, transports, unreachableDatabase } from './helpers/operating.js';

const get = (path: string, init: RequestInit = {}) => new Request(ORIGIN + path, init);

function assertHealthHeaders(res: Response, status: number) {
  assert.is(res.status, status);
  assert.is(res.headers.get('content-type'), 'application/health+json');
  assert.is(res.headers.get('cache-control'), 'no-store');
  assert.ok(res.headers.get('x-request-id'), 'every answer has its request id');
}

for (const transport of transports) {
  test(`${transport.name}: GET and HEAD /v1/health without a key: 200 pass while the database answers`, async () => {
    const store = createPetStore({ db: await sharedPGlite(), keys: [KEY] });
    await mounted(transport, store, async (fetch) => {
      const res = await fetch(get('/v1/health'));
      assertHealthHeaders(res, 200);
      const body = await res.json();
      assert.is(body.status, 'pass');
      const [check] = body.checks['database:responseTime'];
      assert.is(check.status, 'pass');
      assert.is(check.observedUnit, 'ms');
      assert.type(check.observedValue, 'number');
      const head = await fetch(get('/v1/health', { method: 'HEAD' }));
      assertHealthHeaders(head, 200);
      assert.is(await head.text(), '');
      // Only GET and HEAD are public: anything else is the usual 401 first, then 405.
      assert.is((await fetch(get('/v1/health', { method: 'POST' }))).status, 401);
      const post = await fetch(get('/v1/health', { method: 'POST', headers: { authorization: `Bearer ${KEY}` } }));
      assert.is(post.status, 405);
      assert.is(post.headers.get('allow'), 'GET, HEAD');
    });
  });

  test(`${transport.name}: an unreachable database: 503 fail with Retry-After, nothing secret in the body`, async () => {
    const db = unreachableDatabase();
    const store = createPetStore({ db, keys: [KEY] });
    try {
      await mounted(transport, store, async (fetch) => {
        const res = await fetch(get('/v1/health'));
        assertHealthHeaders(res, 503);
        assert.is(res.headers.get('retry-after'), '5');
        const text = await res.text();
        assert.equal(JSON.parse(text), { status: 'fail', output: 'the database is unavailable' });
        assert.not.match(text, /ECONNREFUSED|hunter2|127\.0\.0\.1|select|at /i);
        const head = await fetch(get('/v1/health', { method: 'HEAD' }));
        assertHealthHeaders(head, 503);
      });
    } finally {
      await db.destroy();
    }
  });

  test(`${transport.name}: a database that hangs: 503 fail after about 1 s, and probes share one query`, async () => {
    const hung = await hungDatabase();
    const store = createPetStore({ db: hung.db, keys: [KEY] });
    try {
      await mounted(transport, store, async (fetch) => {
        const started = performance.now();
        const answers = await Promise.all([1, 2, 3].map(() => fetch(get('/v1/health'))));
        const ms = performance.now() - started;
        for (const res of answers) {
          assertHealthHeaders(res, 503);
          assert.equal(await res.json(), { status: 'fail', output: 'the database did not answer within 1 s' });
        }
        assert.ok(ms >= 950 && ms < 5_000, `answered after ${Math.round(ms)} ms (the database never answers)`);
        // A probe after the others gave up waits for the same stuck query: no second one is sent.
        assertHealthHeaders(await fetch(get('/v1/health')), 503);
        assert.is(hung.connections(), 1, 'one query (one connection) for every probe while it hangs');
      });
    } finally {
      await hung.close();
    }
  });

  test(`${transport.name}: health: false makes /v1/health an ordinary authenticated 404; draining answers 503 fail`, async () => {
    const db = await sharedPGlite();
    await mounted(transport, createPetStore({ db, keys: [KEY], health: false }), async (fetch) => {
      assert.is((await fetch(get('/v1/health'))).status, 401);
      assert.is((await fetch(get('/v1/health', { headers: { authorization: `Bearer ${KEY}` } }))).status, 404);
    });
    let draining = false;
    await mounted(transport, createPetStore({ db, keys: [KEY], health: { draining: () => draining } }), async (fetch) => {
      assert.is((await fetch(get('/v1/health'))).status, 200);
      draining = true;
      const res = await fetch(get('/v1/health'));
      assertHealthHeaders(res, 503);
      assert.is(res.headers.get('retry-after'), '5');
      assert.equal(await res.json(), { status: 'fail', output: 'the server is shutting down' });
    });
  });
}

test('health follows the base path', async () => {
  const store = createPetStore({ db: await sharedPGlite(), keys: [KEY], basePath: '/api' });
  assert.is((await store.fetch(get('/api/health'))).status, 200);
  assert.is((await store.fetch(get('/v1/health'))).status, 404);
});

test.run();
