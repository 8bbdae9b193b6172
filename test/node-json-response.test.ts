// Through the Node bridge the store answers JSON with the bridge's lazy Response
// (adapters/node/json-response.ts, given to the store as `createResponse: nodeResponse`): status,
// headers and body served from the string, a platform Response built only when something needs
// one. Callers must not be able to tell: each case here does the same thing to the answer of a
// store with that option (the fast path) and to the plain answer of one without it (a standard
// Response), and expects the same outcome.
import { Readable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../src/index.js';
import { nodeResponse } from '../adapters/node/json-response.js';
import { resetDatabase, sharedPGlite } from './helpers/db.js';
import { KEY } from './helpers/harness.js';

// One X-Request-Id for every request: the two answers compared must carry the same headers.
const auth = { authorization: `Bearer ${KEY}`, 'x-request-id': 'json-response-test' };
/**
 * The store on the shared test PGlite and the path of its one pet, set up on first use (uvu
 * imports every test file before running any, and other files reset the shared database).
 */
let setup: Promise<{ store: ReturnType<typeof createPetStore>; lazyStore: ReturnType<typeof createPetStore>; path: string }> | undefined;
const ready = () =>
  (setup ??= (async () => {
    const db = await sharedPGlite();
    await resetDatabase(db);
    const store = createPetStore({ db, keys: [KEY] });
    const body = '{"name":"Rex \\u00e9","categoryId":9007199254740993}';
    const created = await store.fetch(
      new Request('http://x/v1/pets', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body }),
    );
    const { id } = (await created.json()) as { id: number };
    return { store, lazyStore: createPetStore({ db, keys: [KEY], createResponse: nodeResponse }), path: `http://x/v1/pets/${id}` };
  })());

/** The answer to GET /v1/pets/{id} of a store with `createResponse: nodeResponse`, and of one without. */
async function pair(): Promise<[Response, Response]> {
  const { store, lazyStore, path } = await ready();
  const lazy = await lazyStore.fetch(new Request(path, { headers: auth }));
  const real = await store.fetch(new Request(path, { headers: auth }));
  return [lazy, real];
}

/** What a caller can observe without reading the body. */
function surface(r: Response) {
  return {
    instance: r instanceof Response,
    tag: Object.prototype.toString.call(r),
    status: r.status,
    ok: r.ok,
    statusText: r.statusText,
    type: r.type,
    url: r.url,
    redirected: r.redirected,
    bodyUsed: r.bodyUsed,
    headers: [...r.headers],
  };
}

/** Runs `use` on both and returns both outcomes (value or error class and message). */
async function both<T>(use: (r: Response) => Promise<T> | T) {
  const [lazy, real] = await pair();
  const run = async (r: Response) => {
    try {
      return { value: await use(r), after: surface(r) };
    } catch (error) {
      return { error: (error as Error).constructor.name, after: surface(r) };
    }
  };
  return [await run(lazy), await run(real)] as const;
}

test('the answer built by nodeResponse is not a platform Response, yet looks like one before the body is read', async () => {
  const [lazy, real] = await pair();
  assert.ok(Object.getPrototypeOf(lazy) !== Response.prototype, 'the lazy object is what this file tests');
  assert.ok(Object.getPrototypeOf(real) === Response.prototype, 'without the option: a standard Response');
  assert.equal(surface(lazy), surface(real));
  assert.is(lazy.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.ok(lazy.headers.get('deprecation'));
});

const reads: [string, (r: Response) => Promise<unknown>][] = [
  ['text()', (r) => r.text()],
  ['json()', (r) => r.json()],
  ['arrayBuffer()', async (r) => [...new Uint8Array(await r.arrayBuffer())]],
  ['blob()', async (r) => [(await r.blob()).type, await (await r.blob()).text()]],
  ['formData() (a JSON body is not form data)', (r) => r.formData()],
  ['body stream', async (r) => Buffer.concat(await Readable.fromWeb(r.body as never).toArray()).toString()],
  ['clone() then both bodies', async (r) => [await r.clone().text(), await r.text()]],
  ['text() twice (the second must fail)', async (r) => [await r.text(), await r.text()]],
  [
    'body stream, then text()',
    async (r) => [
      await r
        .body!.getReader()
        .read()
        .then((c) => c.done),
      await r.text(),
    ],
  ],
  ['text(), then clone()', async (r) => [await r.text(), r.clone()]],
  [
    'new Response(r.body, r) (how frameworks re-wrap)',
    async (r) => {
      const wrapped = new Response(r.body, r);
      return [wrapped.status, [...wrapped.headers], await wrapped.text()];
    },
  ],
  [
    'headers set before the body is read',
    async (r) => {
      r.headers.set('x-added', '1');
      const copy = r.clone();
      return [copy.headers.get('x-added'), await copy.text()];
    },
  ],
];
if (typeof (Response.prototype as { bytes?: unknown }).bytes === 'function') {
  reads.push(['bytes()', async (r) => [...(await (r as Response & { bytes(): Promise<Uint8Array> }).bytes())]]);
}
for (const [name, use] of reads) {
  test(`${name}: same outcome as a real Response`, async () => {
    const [lazy, real] = await both(use);
    assert.equal(lazy, real);
  });
}

test('the body text is exact (int64 past 2^53, non-ASCII)', async () => {
  const [lazy] = await pair();
  const id = (await ready()).path.split('/').pop();
  assert.is(await lazy.text(), `{"id":${id},"name":"Rex \u00e9","categoryId":9007199254740993,"status":"available"}`);
});

test('error answers and HEAD behave the same way', async () => {
  const { lazyStore, path } = await ready();
  const missing = await lazyStore.fetch(new Request('http://x/v1/pets/999999', { headers: auth }));
  assert.ok(Object.getPrototypeOf(missing) !== Response.prototype);
  assert.is(missing.status, 404);
  assert.equal(await missing.clone().json(), await missing.json());
  const head = await lazyStore.fetch(new Request(path, { method: 'HEAD', headers: auth }));
  assert.is(head.status, 200);
  assert.is(head.body, null);
  assert.is(await head.text(), '');
});

test('every member of Response.prototype answers on the lazy object (delegated, not listed)', async () => {
  const [lazy, real] = await pair();
  for (const key of Object.getOwnPropertyNames(Response.prototype)) {
    if (key === 'constructor') continue;
    const value = (lazy as unknown as Record<string, unknown>)[key];
    assert.is(typeof value, typeof (real as unknown as Record<string, unknown>)[key], key);
  }
});

test.run();
