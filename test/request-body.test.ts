// One capped reader serves every body (src/http/body.ts): an in-process Request's own stream,
// a ReadableStream body, and a stream pulled chunk by chunk from a reader (as the Node bridge's is).
// A caller must not be able to tell which: each body here is read all three ways and must give the
// same value or the same error; the key cases also state the expected outcome itself.
import { test } from 'uvu';
import * as assert from 'uvu/assert';

/** Pulls a body's chunks, as the Node bridge's reader does (adapters/node/body-reader.ts). */
interface BodyReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(): Promise<void>;
}

/** A Request whose body stream pulls from `reader` (highWaterMark 0, as the bridge's body). */
function fromReader(reader: BodyReader): Request {
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: () => reader.cancel(),
    },
    { highWaterMark: 0 },
  );
  return new Request(URL_, { method: 'POST', headers: JSON_TYPE, body: stream, duplex: 'half' } as RequestInit);
}
import { readJsonObject } from '../src/http/body.js';
import { ApiError, ErrorCode } from '../src/errors.js';

const URL_ = 'http://x/v1/pets';
const JSON_TYPE = { 'content-type': 'application/json' };

type Body = string | Uint8Array | ArrayBuffer | DataView;

const bytesOf = (body: Body): Uint8Array =>
  typeof body === 'string'
    ? new TextEncoder().encode(body)
    : body instanceof ArrayBuffer
      ? new Uint8Array(body)
      : new Uint8Array(body.buffer, body.byteOffset, body.byteLength);

/** The same bytes in a stream body. */
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

/** An adapter's reader over `bytes` in chunks of `size` (splitting UTF-8 sequences), counting cancels. */
function chunkReader(bytes: Uint8Array, size = 7): BodyReader & { cancelled: number } {
  let offset = 0;
  return {
    cancelled: 0,
    read() {
      if (offset >= bytes.byteLength) return Promise.resolve({ done: true, value: undefined });
      const value = bytes.slice(offset, offset + size);
      offset += size;
      return Promise.resolve({ done: false, value });
    },
    cancel() {
      this.cancelled++;
      return Promise.resolve();
    },
  };
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

const tooLarge = { status: 413, code: 'payload_too_large', message: 'the request body exceeds 65536 bytes' };
const notUtf8 = { status: 400, code: 'invalid_json', message: 'the request body is not valid UTF-8' };

const cases: [string, Body, unknown?][] = [
  ['a pet', '{"name":"Rex","categoryId":7,"status":"pending"}', { value: '{"name":"Rex","categoryId":"7n","status":"pending"}' }],
  ['non-ASCII text', '{"name":"Ré ✓ 🐕","categoryId":1}', { value: '{"name":"Ré ✓ 🐕","categoryId":"1n"}' }],
  ['a byte order mark', '\uFEFF{"name":"Rex","categoryId":1}', { value: '{"name":"Rex","categoryId":"1n"}' }],
  ['two byte order marks', '\uFEFF\uFEFF{"name":"Rex"}'],
  ['a lone high surrogate', '{"name":"a\uD800b","categoryId":1}', { value: '{"name":"a\uFFFDb","categoryId":"1n"}' }],
  ['a lone surrogate outside strings', '{"name":"Rex"}\uD800'],
  ['an empty body', '', { status: 400, code: 'invalid_json', message: 'the request body is empty' }],
  ['only whitespace', ' \n\t '],
  ['null', 'null'],
  ['an array', '[1,2]'],
  ['malformed JSON', '{"name":'],
  ['exactly the cap', `{"name":"${'a'.repeat(65_536 - 11)}"}`, { value: `{"name":"${'a'.repeat(65_536 - 11)}"}` }],
  ['one byte past the cap', `{"name":"${'a'.repeat(65_536 - 10)}"}`, tooLarge],
  ['past the cap in UTF-8 only', `{"name":"${'é'.repeat(40_000)}"}`, tooLarge],
  ['bytes', new TextEncoder().encode('{"name":"Rex","categoryId":2}')],
  ['bytes that are not UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]), notUtf8],
  ['bytes with a byte order mark', new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), { value: '{}' }],
  ['a slice of bytes', new TextEncoder().encode('xx{"name":"Rex"}yy').subarray(2, 16), { value: '{"name":"Rex"}' }],
  ['an ArrayBuffer', new TextEncoder().encode('{"categoryId":3}').buffer],
  ['a DataView', new DataView(new TextEncoder().encode('{"categoryId":4}').buffer)],
  ['bytes past the cap', new Uint8Array(65_537).fill(0x20), tooLarge],
];

for (const [name, body, expected] of cases) {
  test(`${name}: the same outcome in-process, through a stream, and through an adapter's reader`, async () => {
    const held = await outcome(new Request(URL_, { method: 'POST', headers: JSON_TYPE, body: body as BodyInit }));
    assert.equal(held, await outcome(streamed(body)), 'a ReadableStream body');
    assert.equal(held, await outcome(fromReader(chunkReader(bytesOf(body)))), "a reader's stream");
    if (expected !== undefined) assert.equal(held, expected);
  });
}

test("past the cap the adapter's reader is cancelled at once, not read to its end", async () => {
  const reader = chunkReader(new Uint8Array(1_000_000).fill(0x20), 16_384);
  let reads = 0;
  const counting: BodyReader = { read: () => (reads++, reader.read()), cancel: () => reader.cancel() };
  assert.equal(await outcome(fromReader(counting)), tooLarge);
  assert.is(reader.cancelled, 1);
  assert.is(reads, 5, '4 chunks of 16 KiB fit, the 5th crosses the cap');
});

test("a reader that fails: 400 (the client's doing); one that fails with an ApiError keeps it", async () => {
  const failing = (error: unknown): Request => fromReader({ read: () => Promise.reject(error), cancel: () => Promise.resolve() });
  assert.equal(await outcome(failing(new Error('ECONNRESET'))), {
    status: 400,
    code: 'invalid_request',
    message: 'the request body could not be read to its end',
  });
  const own = new ApiError({ status: 413, code: ErrorCode.payloadTooLarge, message: 'the request body exceeds 10 bytes' });
  assert.equal(await outcome(failing(own)), {
    status: 413,
    code: 'payload_too_large',
    message: 'the request body exceeds 10 bytes',
  });
});

test('an aborted signal: 400, with the body at hand or behind a stream', async () => {
  const body = '{"name":"Rex"}';
  const expected = { status: 400, code: 'invalid_request', message: 'the request body could not be read to its end' };
  assert.equal(await outcome(new Request(URL_, { method: 'POST', headers: JSON_TYPE, body, signal: AbortSignal.abort() })), expected);
  assert.equal(await outcome(streamed(body, { signal: AbortSignal.abort() })), expected);
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

const alreadyRead = { status: 400, code: 'invalid_request', message: 'the request body has already been read' };

test('a body already read: 400', async () => {
  const request = new Request(URL_, { method: 'POST', headers: JSON_TYPE, body: '{"name":"Rex"}' });
  await request.text();
  assert.equal(await outcome(request), alreadyRead);
  const used = streamed('{"name":"Rex"}');
  await used.text();
  assert.equal(await outcome(used), alreadyRead);
});

test('a body whose reader the caller holds: 400', async () => {
  const request = new Request(URL_, { method: 'POST', headers: JSON_TYPE, body: '{"name":"Rex"}' });
  request.body!.getReader();
  assert.equal(await outcome(request), alreadyRead);
  const locked = streamed('{"name":"Rex"}');
  locked.body!.getReader();
  assert.equal(await outcome(locked), alreadyRead);
});

test('a subclass of Request and a Request copied from another read the same', async () => {
  class Sub extends Request {}
  const body = '{"name":"Rex"}';
  assert.equal(await outcome(new Sub(URL_, { method: 'POST', headers: JSON_TYPE, body })), { value: body });
  const original = new Request(URL_, { method: 'POST', headers: JSON_TYPE, body });
  const copy = new Request(original);
  assert.equal(await outcome(copy), { value: body });
  assert.ok(original.bodyUsed, 'the original handed its body to the copy');
  assert.equal(await outcome(original), alreadyRead);
});

test('in-process, the store reads the Request body through its stream: bodyUsed is true afterwards', async () => {
  const request = new Request(URL_, { method: 'POST', headers: JSON_TYPE, body: '{"name":"Rex"}' });
  await readJsonObject(request);
  assert.is(request.bodyUsed, true);
});

// A body whose Content-Length is declared is read whole by the Request itself (src/http/body.ts,
// readDeclared): the same cap, the same abort and the same errors as a streamed one.
test('a declared Content-Length: the body read whole, still capped, still given up at an abort', async () => {
  const declared = (length: number, body: BodyInit, signal?: AbortSignal) =>
    new Request(URL_, {
      method: 'POST',
      headers: { ...JSON_TYPE, 'content-length': String(length) },
      body,
      duplex: 'half',
      ...(signal ? { signal } : {}),
    } as RequestInit);
  const body = '{"name":"Rex"}';
  assert.equal(await outcome(declared(body.length, body)), { value: body });
  // Declared within the cap, sent past it (only an in-process caller can): 413 all the same.
  assert.equal(await outcome(declared(10, `{"name":"${'x'.repeat(70_000)}"}`)), tooLarge);
  const unreadable = { status: 400, code: 'invalid_request', message: 'the request body could not be read to its end' };
  assert.equal(await outcome(declared(body.length, body, AbortSignal.abort())), unreadable);
  // A body that stalls, then the abort: answered at the abort, not left pending.
  const abort = new AbortController();
  const stalled = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{"name":')) });
  setTimeout(() => abort.abort(), 20);
  const started = performance.now();
  assert.equal(await outcome(declared(body.length, stalled, abort.signal)), unreadable);
  assert.ok(performance.now() - started < 5_000, 'answered at the abort (the body never ends on its own)');
});

// A runtime whose Request has no bytes() (older than the method): the declared body is read by
// arrayBuffer() instead, with the same outcomes.
test('a declared body on a Request without bytes(): read by arrayBuffer(), the same outcomes', async () => {
  const withoutBytes = (length: number, body: string) => {
    const request = new Request(URL_, { method: 'POST', headers: { ...JSON_TYPE, 'content-length': String(length) }, body });
    Object.defineProperty(request, 'bytes', { value: undefined });
    let arrayBufferCalls = 0;
    const arrayBuffer = request.arrayBuffer.bind(request);
    Object.defineProperty(request, 'arrayBuffer', { value: () => (arrayBufferCalls++, arrayBuffer()) });
    return { request, calls: () => arrayBufferCalls };
  };
  const body = '{"name":"Rex"}';
  const read = withoutBytes(body.length, body);
  assert.equal(await outcome(read.request), { value: body });
  assert.is(read.calls(), 1, 'read by arrayBuffer()');
  assert.equal(await outcome(withoutBytes(10, `{"name":"${'x'.repeat(70_000)}"}`).request), tooLarge);
});

// readJsonObject says every refusal is a rejection: a caller chaining on its promise (the route
// layer does) must never see a synchronous throw, whatever the refusal.
test('every refusal is a rejected promise, never a synchronous throw', async () => {
  const refused = [
    new Request(URL_, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }),
    new Request(URL_, { method: 'POST', headers: { ...JSON_TYPE, 'content-length': '999999' }, body: '{}' }),
    new Request(URL_, { method: 'POST', headers: JSON_TYPE, body: '{"name":' }),
  ];
  const statuses: number[] = [];
  for (const request of refused) {
    let pending: Promise<unknown> | undefined;
    assert.not.throws(() => void (pending = readJsonObject(request)));
    statuses.push(
      await pending!.then(
        () => 0,
        (error: unknown) => (error as ApiError).status,
      ),
    );
  }
  assert.equal(statuses, [415, 413, 400]);
});

test.run();
