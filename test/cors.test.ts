import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../src/index.js';
import { resetDatabase, sharedPGlite } from './helpers/db.js';
import { KEY } from './helpers/harness.js';
import { mounted, transports } from './helpers/operating.js';

const API = 'http://api.test';
const APP = 'https://app.example';
const ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, If-None-Match, X-Request-Id';
/** CORS-safelisted response headers: a page reads these without Access-Control-Expose-Headers. */
const SAFELISTED = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);

type Fetch = (r: Request) => Promise<Response>;

/** What a browser does for a non-simple request: the preflight, then (if it passed) the request. */
async function browserFetch(
  fetch: Fetch,
  origin: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const method = init.method ?? 'GET';
  const requested = Object.keys(init.headers ?? {})
    .map((h) => h.toLowerCase())
    .sort()
    .join(',');
  const pre = await fetch(
    new Request(API + path, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': requested },
    }),
  );
  const allowedMethods = (pre.headers.get('access-control-allow-methods') ?? '').split(/,\s*/);
  const allowedHeaders = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
  const preflightOk =
    pre.status >= 200 &&
    pre.status < 300 &&
    [origin, '*'].includes(pre.headers.get('access-control-allow-origin') ?? '') &&
    (['GET', 'HEAD', 'POST'].includes(method) || allowedMethods.includes(method)) &&
    requested.split(',').every((h) => h === '' || allowedHeaders.includes(h));
  if (!preflightOk) return { preflight: pre, preflightOk };
  const res = await fetch(new Request(API + path, { method, headers: { ...init.headers, origin }, body: init.body ?? null }));
  const readable = [origin, '*'].includes(res.headers.get('access-control-allow-origin') ?? '');
  return { preflight: pre, preflightOk, res, readable };
}

/** Every non-safelisted header of `res` is listed in Access-Control-Expose-Headers. */
function assertAllExposed(res: Response) {
  const exposed = new Set((res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/));
  for (const [name] of res.headers) {
    if (SAFELISTED.has(name) || name.startsWith('access-control-') || name === 'vary') continue;
    // Set by the transport, not the store.
    if (['connection', 'keep-alive', 'date', 'transfer-encoding'].includes(name)) continue;
    assert.ok(exposed.has(name), `${name} is not exposed (status ${res.status})`);
  }
}

for (const transport of transports) {
  test(`${transport.name}: browser-style, allowed origin: preflight 204 before authentication, then the request's answer is readable`, async () => {
    const db = await sharedPGlite();
    await resetDatabase(db);
    const store = createPetStore({ db, keys: [KEY], cors: { origins: [APP, 'http://localhost:5173'] } });
    await mounted(transport, store, async (fetch) => {
      const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      const create = await browserFetch(fetch, APP, '/v1/pets', { method: 'POST', headers: auth, body: '{"name":"Rex","categoryId":1}' });
      const pre = create.preflight;
      assert.is(pre.status, 204);
      assert.is(pre.headers.get('access-control-allow-origin'), APP);
      assert.is(pre.headers.get('vary'), 'Origin');
      assert.is(pre.headers.get('access-control-allow-methods'), 'GET, HEAD, POST');
      assert.is(pre.headers.get('access-control-allow-headers'), ALLOW_HEADERS);
      assert.is(pre.headers.get('access-control-max-age'), '600');
      assert.is(pre.headers.get('access-control-allow-credentials'), null);
      assert.ok(pre.headers.get('x-request-id'));
      assert.ok(create.preflightOk && create.readable, 'the browser lets the page read the answer');
      assert.is(create.res.status, 201);
      assert.is(create.res.headers.get('vary'), 'Origin');
      assert.is(create.res.headers.get('access-control-allow-credentials'), null);
      assertAllExposed(create.res);
      const { id } = await create.res.json();

      // Errors too: the page can read the Error body and every header of each.
      const answers = [
        await browserFetch(fetch, APP, `/v1/pets/${id}`, { headers: { authorization: `Bearer ${KEY}` } }), // 200 + Deprecation, Sunset, Link
        await browserFetch(fetch, APP, '/v1/pets?limit=1', { headers: { authorization: `Bearer ${KEY}` } }), // 200 (+ Link when more)
        await browserFetch(fetch, APP, '/v1/pets', { headers: { authorization: 'Bearer wrong' } }), // 401 + WWW-Authenticate
        await browserFetch(fetch, APP, '/v1/nowhere', { headers: { authorization: `Bearer ${KEY}` } }), // 404
        await browserFetch(fetch, 'http://localhost:5173', '/v1/pets', { method: 'POST', headers: auth, body: '{' }), // 400
        await browserFetch(fetch, APP, '/v1/health'),
      ];
      assert.equal(
        answers.map((a) => a.res?.status),
        [200, 200, 401, 404, 400, 200],
      );
      for (const a of answers) {
        assert.ok(a.readable, `readable: ${a.res?.status}`);
        assertAllExposed(a.res);
      }
      assert.is(answers[4]!.res!.headers.get('access-control-allow-origin'), 'http://localhost:5173');
      assert.is((await answers[2]!.res!.json()).code, 'unauthorized');
      // The preflight of a path lists that path's methods; a method it lacks fails in the browser.
      const del = await browserFetch(fetch, APP, `/v1/pets/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${KEY}` } });
      assert.is(del.preflight.headers.get('access-control-allow-methods'), 'GET, HEAD');
      assert.not.ok(del.preflightOk);
    });
  });

  test(`${transport.name}: browser-style, refused origin: no CORS header anywhere, as if CORS were off`, async () => {
    const db = await sharedPGlite();
    const store = createPetStore({ db, keys: [KEY], cors: { origins: [APP] } });
    await mounted(transport, store, async (fetch) => {
      for (const origin of ['https://evil.example', 'https://app.example:8443', 'http://app.example', 'null']) {
        const attempt = await browserFetch(fetch, origin, '/v1/pets', { headers: { authorization: `Bearer ${KEY}` } });
        assert.not.ok(attempt.preflightOk, origin);
        assert.is(attempt.preflight.status, 401, 'the preflight meets the usual 401, as without CORS');
        for (const [name] of attempt.preflight.headers) assert.not.ok(name.startsWith('access-control-'), `${origin}: ${name}`);
        // A page that skips the preflight (a simple GET) gets an answer it may not read.
        const simple = await fetch(new Request(`${API}/v1/pets`, { headers: { origin, authorization: `Bearer ${KEY}` } }));
        assert.is(simple.status, 200);
        for (const [name] of simple.headers) assert.not.ok(name.startsWith('access-control-'), `${origin}: ${name}`);
        assert.is(simple.headers.get('vary'), null);
      }
      // Outside the base path a preflight is not answered either.
      const outside = await fetch(
        new Request(`${API}/elsewhere`, { method: 'OPTIONS', headers: { origin: APP, 'access-control-request-method': 'GET' } }),
      );
      assert.is(outside.status, 404);
    });
  });

  test(`${transport.name}: origins '*' allows any origin with Allow-Origin *; CORS off answers no preflight`, async () => {
    const db = await sharedPGlite();
    await mounted(transport, createPetStore({ db, keys: [KEY], cors: { origins: '*', maxAgeSeconds: 7200 } }), async (fetch) => {
      const a = await browserFetch(fetch, 'https://anyone.example', '/v1/pets', { headers: { authorization: `Bearer ${KEY}` } });
      assert.is(a.preflight.headers.get('access-control-allow-origin'), '*');
      assert.is(a.preflight.headers.get('access-control-max-age'), '7200');
      assert.ok(a.readable);
      assert.is(a.res.headers.get('access-control-allow-origin'), '*');
      const noOrigin = await fetch(new Request(`${API}/v1/pets`, { headers: { authorization: `Bearer ${KEY}` } }));
      assert.is(noOrigin.headers.get('access-control-allow-origin'), null, 'no Origin, no CORS answer');
    });
    await mounted(transport, createPetStore({ db, keys: [KEY] }), async (fetch) => {
      const a = await browserFetch(fetch, APP, '/v1/pets', { headers: { authorization: `Bearer ${KEY}` } });
      assert.is(a.preflight.status, 401);
      assert.not.ok(a.preflightOk);
    });
  });
}

test('cors options are checked at creation', async () => {
  const db = await sharedPGlite();
  for (const origins of [[], ['https://app.example/'], ['app.example'], ['https://app.example/path'], ['null'], 'all']) {
    assert.throws(() => createPetStore({ db, keys: [KEY], cors: { origins: origins as never } }), /options\.cors/, JSON.stringify(origins));
  }
  assert.throws(() => createPetStore({ db, keys: [KEY], cors: { origins: [APP], maxAgeSeconds: -1 } }), /maxAgeSeconds/);
});

test.run();
