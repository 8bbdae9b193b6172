// Where the runtime keeps the body a caller built its Request from (Node.js 20's undici), the
// store reads that instead of the Request's web stream (src/http/request-source.ts). A caller must
// not be able to tell from the outcome: each body here is read both ways, once from a Request that
// holds its source and once from the same bytes behind a ReadableStream (which has no source), and
// both must give the same value or the same error.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readJsonObject } from '../src/http/body.js';
import { ApiError } from '../src/http/errors.js';
import { requestSource } from '../src/http/request-source.js';
import { createPetStore } from '../src/index.js';
import { resetDatabase, sharedPGlite } from './helpers/db.js';
import { KEY } from './helpers/harness.js';

const URL_ = 'http://x/v1/pets';
const JSON_TYPE = { 'content-type': 'application/json' };
/** Whether this runtime's Request keeps its source (undici 6: Node.js 20 and 22). */
const keepsSource = Object.getOwnPropertySymbols(new Request(URL_, { method: 'POST', body: '{}' })).some((s) => s.description === 'state');
const major = Number(process.versions.node.split('.')[0]);

type Body = string | Uint8Array | ArrayBuffer | DataView;

const bytesOf = (body: Body): Uint8Array =>
  typeof body === 'string'
    ? new TextEncoder().encode(body)
    : body instanceof ArrayBuffer
      ? new Uint8Array(body)
      : new Uint8Array(body.buffer, body.byteOffset, body.byteLength);

/** The same bytes in a stream body, which no runtime keeps a source for. */
function streamed(body: Body, init: RequestInit = {}): Request {
  const bytes = bytesOf(body);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(bytes.slice());
      controller.close();
    },
  });
  return new Request(URL_, { method: 'POST', headers: JSON_TYPE, ...init, body: stream, duplex: 'half' } as RequestInit);
}

/** What a caller observes: the value, or the error's status, code and message. */
async function outcome(request: Request): Promise<unknown> {
  try {
    // JSON with int64 numbers as `7n`: the parser gives bigints (json-parse.ts).
    return { value: JSON.stringify(await readJsonObject(request), (_, v) => (typeof v === 'bigint' ? `${v}n` : v)) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, code: error.code, message: error.message };
  }
}

const cases: [string, Body][] = [
  ['a pet', '{"name":"Rex","categoryId":7,"status":"pending"}'],
  ['non-ASCII text', '{"name":"Ré ✓ 🐕","categoryId":1}'],
  ['a byte order mark', '\uFEFF{"name":"Rex","categoryId":1}'],
  ['two byte order marks', '\uFEFF\uFEFF{"name":"Rex"}'],
  ['a lone high surrogate', '{"name":"a\uD800b","categoryId":1}'],
  ['a lone low surrogate', '{"name":"\uDC00","categoryId":1}'],
  ['a surrogate pair split by a lone one', '{"name":"\uD83D\uD83D\uDC15"}'],
  ['a lone surrogate outside strings', '{"name":"Rex"}\uD800'],
  ['an empty body', ''],
  ['only whitespace', ' \n\t '],
  ['null', 'null'],
  ['an array', '[1,2]'],
  ['malformed JSON', '{"name":'],
  ['exactly the cap', `{"name":"${'a'.repeat(65_536 - 11)}"}`],
  ['one byte past the cap', `{"name":"${'a'.repeat(65_536 - 10)}"}`],
  ['past the cap in UTF-8 only', `{"name":"${'é'.repeat(40_000)}"}`],
  ['bytes', new TextEncoder().encode('{"name":"Rex","categoryId":2}')],
  ['bytes that are not UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d])],
  ['bytes with a byte order mark', new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d])],
  ['a slice of bytes', new TextEncoder().encode('xx{"name":"Rex"}yy').subarray(2, 16)],
  ['an ArrayBuffer', new TextEncoder().encode('{"categoryId":3}').buffer as ArrayBuffer],
  ['a DataView', new DataView(new TextEncoder().encode('{"categoryId":4}').buffer as ArrayBuffer)],
  ['bytes past the cap', new Uint8Array(65_537).fill(0x20)],
];

for (const [name, body] of cases) {
  test(`${name}: the same outcome with the source at hand as through the stream`, async () => {
    const held = new Request(URL_, { method: 'POST', headers: JSON_TYPE, body: body as BodyInit });
    assert.is(requestSource(held) !== undefined, keepsSource, 'the source is taken wherever the runtime keeps it');
    assert.equal(await outcome(held), await outcome(streamed(body)));
  });
}

test('an aborted signal: the same error with the source at hand as through the stream', async () => {
  const body = '{"name":"Rex"}';
  const held = await outcome(new Request(URL_, { method: 'POST', headers: JSON_TYPE, body, signal: AbortSignal.abort() }));
  assert.equal(held, await outcome(streamed(body, { signal: AbortSignal.abort() })));
  assert.equal(held, { status: 400, code: 'invalid_request', message: 'the request body could not be read to its end' });
});

test('past the cap with an aborted signal: the same error with the source at hand as through the stream', async () => {
  const body = `{"name":"${'a'.repeat(70_000)}"}`;
  const held = await outcome(new Request(URL_, { method: 'POST', headers: JSON_TYPE, body, signal: AbortSignal.abort() }));
  assert.equal(held, await outcome(streamed(body, { signal: AbortSignal.abort() })));
});

for (const [name, body] of [
  ['bytes', () => new TextEncoder().encode('{"name":"Rex"}')],
  ['a string', () => '{"name":"Rex"}'],
] as const) {
  test(`${name} shared with a clone that was read: the original still reads its whole body`, async () => {
    const original = new Request(URL_, { method: 'POST', headers: JSON_TYPE, body: body() as BodyInit });
    await original.clone().text();
    assert.equal(await outcome(original), { value: '{"name":"Rex"}' });
    const other = new Request(URL_, { method: 'POST', headers: JSON_TYPE, body: body() as BodyInit });
    const clone = other.clone();
    await other.text();
    assert.equal(await outcome(clone), { value: '{"name":"Rex"}' });
  });
}

test('a body already read: 400, whether the Request kept its source or not', async () => {
  const request = new Request(URL_, { method: 'POST', headers: JSON_TYPE, body: '{"name":"Rex"}' });
  await request.text();
  assert.is(requestSource(request), undefined);
  const expected = { status: 400, code: 'invalid_request', message: 'the request body has already been read' };
  assert.equal(await outcome(request), expected);
  assert.equal(await outcome(await usedStream()), expected);
});

test('a body whose reader the caller holds: 400, whether the Request kept its source or not', async () => {
  const request = new Request(URL_, { method: 'POST', headers: JSON_TYPE, body: '{"name":"Rex"}' });
  request.body!.getReader();
  assert.is(requestSource(request), undefined);
  const expected = { status: 400, code: 'invalid_request', message: 'the request body has already been read' };
  assert.equal(await outcome(request), expected);
  const locked = streamed('{"name":"Rex"}');
  locked.body!.getReader();
  assert.equal(await outcome(locked), expected);
});

async function usedStream(): Promise<Request> {
  const request = streamed('{"name":"Rex"}');
  await request.text();
  return request;
}

test('a subclass of Request and a Request copied from another keep their outcome', async () => {
  class Sub extends Request {}
  const body = '{"name":"Rex"}';
  const sub = new Sub(URL_, { method: 'POST', headers: JSON_TYPE, body });
  assert.is(requestSource(sub), undefined, 'only the runtime class itself');
  assert.equal(await outcome(sub), { value: body });
  const original = new Request(URL_, { method: 'POST', headers: JSON_TYPE, body });
  const copy = new Request(original);
  assert.equal(await outcome(copy), { value: body });
  assert.ok(original.bodyUsed, 'the original handed its body to the copy');
  assert.equal(await outcome(original), await outcome(await usedStream()));
});

test('on Node.js 20 the runtime keeps the source, so the store does not read the stream', async () => {
  if (major !== 20 || typeof process.versions.bun === 'string') return;
  assert.ok(keepsSource, "Node.js 20's Request no longer keeps its source: request-source.ts needs a look");
  const db = await sharedPGlite();
  await resetDatabase(db);
  const store = createPetStore({ db, keys: [KEY] });
  const request = new Request(URL_, { method: 'POST', headers: { ...JSON_TYPE, authorization: `Bearer ${KEY}` }, body: '{"name":"Rex","categoryId":7}' });
  const response = await store.fetch(request);
  assert.is(response.status, 201);
  assert.is(request.bodyUsed, false, 'the stream was left alone');
  assert.equal(await response.json(), { id: 1, name: 'Rex', categoryId: 7, status: 'available' });
});

test.run();
