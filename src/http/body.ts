import { ApiError, ErrorCode } from '../errors.js';

// Reading a JSON request body: the capped read of its bytes, then the strict, int64-exact parse.

/** Request bodies larger than this are refused with 413, counted while streaming. */
export const MAX_BODY_BYTES = 65_536;

const JSON_MEDIA_TYPE = /^application\/json\s*(?:;|$)/i;

/**
 * One strict decoder for every body: creating a TextDecoder opens an ICU converter on each call,
 * and `decode()` without `{ stream: true }` starts from a clean state each time.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Reads a JSON object body: 415 unless the media type is application/json (any case, parameters
 * allowed), 413 past `MAX_BODY_BYTES` (checked against Content-Length first, then while reading,
 * because Content-Length may be absent or wrong), 400 for bytes that are not UTF-8 JSON or a
 * JSON value that is not an object. Every refusal is a rejection. (Not an async function: the
 * parse runs in the step that receives the bytes, with no generator to resume.)
 */
export function readJsonObject(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  try {
    const type = request.headers.get('content-type');
    if (type === null || !JSON_MEDIA_TYPE.test(type.trim())) {
      throw new ApiError(415, ErrorCode.unsupportedMediaType, 'the request body must be application/json');
    }
    const declared = request.headers.get('content-length');
    if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
    return readBody(request, maxBytes, declared !== null && DECIMAL.test(declared), jsonObject);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A body's bytes as the JSON object it must be (400 otherwise). */
function jsonObject(bytes: Uint8Array): Record<string, unknown> {
  const text = decodeUtf8(bytes);
  if (text.trim() === '') throw new ApiError(400, ErrorCode.invalidJson, 'the request body is empty');
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new ApiError(400, ErrorCode.invalidJson, `malformed JSON: ${error.message}`);
    throw error;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(400, ErrorCode.invalidRequest, 'the request body must be a JSON object', [
      { path: '', message: 'must be a JSON object' },
    ]);
  }
  return value as Record<string, unknown>;
}

/** A Content-Length value: decimal digits only. */
const DECIMAL = /^\d+$/;

/**
 * The whole body of `request`, at most `maxBytes` of it, as `read` makes it: read whole by the
 * Request itself when its length was declared (and found within the cap), else through
 * `request.body`, counted as it streams. `read` runs in the step that has the bytes (a throw is
 * the rejection), so the caller's value is one promise away from the body's.
 */
function readBody<T>(request: Request, maxBytes: number, declaredWithinCap: boolean, read: (bytes: Uint8Array) => T): Promise<T> {
  // An in-process caller may hand over a Request whose body it has read or locked: its mistake,
  // told as such, not a 500 from a TypeError.
  if (request.bodyUsed) return Promise.reject(alreadyRead());
  if (declaredWithinCap) return readDeclared(request, maxBytes, read);
  if (request.body === null) return Promise.resolve(new Uint8Array(0)).then(read);
  if (request.body.locked) return Promise.reject(alreadyRead());
  return readCapped(request.body.getReader(), maxBytes, request.signal).then(read);
}

/**
 * A body whose declared length is within the cap, read whole by the Request itself (wholeBody):
 * a runtime's HTTP parser holds a body to its Content-Length (Node, Deno, Bun, workerd), so the
 * read is bounded, and a Request may read itself faster than through a web stream (the Node
 * bridge reads the socket directly; docs/performance.md, fast path `lazy-request`). Still checked
 * against the cap afterwards (an in-process caller may declare less than it sends), and given up
 * with a 400 when the request's signal aborts first, as the streamed read is.
 */
function readDeclared<T>(request: Request, maxBytes: number, read: (bytes: Uint8Array) => T): Promise<T> {
  const signal = request.signal;
  if (signal.aborted) return Promise.reject(unreadable());
  // One promise of ours: settled by the read, or by the abort first (a later end of the read is then nobody's).
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(unreadable());
    signal.addEventListener('abort', onAbort, { once: true });
    wholeBody(request).then(
      (bytes) => {
        signal.removeEventListener('abort', onAbort);
        if (bytes.byteLength > maxBytes) return reject(tooLarge(maxBytes));
        try {
          resolve(read(bytes));
        } catch (error) {
          reject(error);
        }
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // An adapter's own ApiError (413 at its cap) is kept; any other failure is a broken upload.
        reject(error instanceof ApiError ? error : unreadable());
      },
    );
  });
}

/**
 * The whole body by the Request's own `bytes()` (Node 22, Deno, Bun; the Node bridge's reads the
 * socket straight into it), else by `arrayBuffer()` where a runtime's Request lacks `bytes()`.
 */
function wholeBody(request: Request): Promise<Uint8Array> {
  return typeof request.bytes === 'function' ? request.bytes() : request.arrayBuffer().then((buffer) => new Uint8Array(buffer));
}

function alreadyRead(): ApiError {
  return new ApiError(400, ErrorCode.invalidRequest, 'the request body has already been read');
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ApiError(400, ErrorCode.invalidJson, 'the request body is not valid UTF-8');
  }
}

function unreadable(): ApiError {
  return new ApiError(400, ErrorCode.invalidRequest, 'the request body could not be read to its end');
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, ErrorCode.payloadTooLarge, `the request body exceeds ${maxBytes} bytes`);
}

/**
 * Reads `reader` to its end: 413 as soon as more than `maxBytes` arrived (reading stops there, so
 * memory stays bounded whatever the client sends), 400 when the body cannot be read to its end.
 * An abort of `signal` (the client went away) cancels the read, so it never waits forever.
 */
async function readCapped(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  const onAbort = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        // An adapter may end the stream with an ApiError of its own (413 at its cap): keep it.
        // Any other broken upload is the client's doing: not a 500, and never a 503 (an
        // ECONNRESET of the client's socket would otherwise read as "database unreachable").
        throw error instanceof ApiError ? error : unreadable();
      }
      const { done, value } = result;
      if (signal.aborted) throw unreadable();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        // Stop reading at once: memory stays bounded whatever the client keeps sending.
        await reader.cancel().catch(() => {});
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/**
 * A strict JSON parser (RFC 8259) that keeps integers exact.
 *
 * Why our own: `JSON.parse` turns every number into a double, so `9007199254740993` silently
 * becomes `9007199254740992`, and `1.0` cannot be told apart from `1`. Node 20 has no
 * `JSON.parse` source-text access. Here an integer literal (no fraction, no exponent) becomes a
 * `bigint`; any other number stays a `number`, so validation can reject `1.0` and `1e3` for int64
 * fields. Objects have no prototype, so `__proto__` and `constructor` are plain keys.
 */

/** Thrown for text that is not JSON; `message` is safe to show to clients. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
}

/** Nesting deeper than this is refused rather than risking the stack (no API body needs it). */
export const MAX_JSON_DEPTH = 64;

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

// The parser's state lives in the module, not in closures made per call (closures per body were
// a measurable part of a create's CPU, docs/performance.md). parseJson is synchronous and calls no outside code, so one
// parse cannot interleave with another.
let text = '';
let i = 0;

/** Parses JSON text; integer literals become `bigint`, other numbers `number`. */
export function parseJson(source: string): unknown {
  text = source;
  i = 0;
  try {
    const value = parseValue(0);
    skipWhitespace();
    if (i !== text.length) fail('unexpected data after the JSON value');
    return value;
  } finally {
    text = ''; // do not keep a large body alive
  }
}

function fail(what: string): never {
  throw new JsonSyntaxError(i >= text.length ? `unexpected end of JSON input` : `${what} at position ${i}`);
}

function skipWhitespace(): void {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return;
  }
}

function parseString(): string {
  i++; // opening quote
  let out = '';
  let start = i;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      out += text.slice(start, i);
      i++;
      return out;
    }
    if (c === 0x5c) {
      out += text.slice(start, i);
      const e = text[i + 1];
      if (e === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('invalid unicode escape');
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else {
        const ch = e === undefined ? undefined : ESCAPES[e];
        if (ch === undefined) fail('invalid escape');
        out += ch;
        i += 2;
      }
      start = i;
      continue;
    }
    if (Number.isNaN(c)) fail('unterminated string');
    if (c < 0x20) fail('control character in string');
    i++;
  }
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** A number as the grammar allows: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
function parseNumber(): bigint | number {
  const start = i;
  let c = text.charCodeAt(i);
  if (c === 0x2d) c = text.charCodeAt(++i);
  if (c === 0x30) i++;
  else if (c >= 0x31 && c <= 0x39) while (isDigit(text.charCodeAt(++i)));
  else {
    i = start;
    return fail('unexpected character');
  }
  let integer = true;
  // A fraction or exponent without digits is not part of the number (the next check fails on it).
  if (text.charCodeAt(i) === 0x2e && isDigit(text.charCodeAt(i + 1))) {
    integer = false;
    i++;
    while (isDigit(text.charCodeAt(++i)));
  }
  c = text.charCodeAt(i);
  if (c === 0x65 || c === 0x45) {
    const sign = text.charCodeAt(i + 1);
    const first = sign === 0x2b || sign === 0x2d ? i + 2 : i + 1;
    if (isDigit(text.charCodeAt(first))) {
      integer = false;
      i = first;
      while (isDigit(text.charCodeAt(++i)));
    }
  }
  const literal = text.slice(start, i);
  return integer ? BigInt(literal) : Number(literal);
}

function parseValue(depth: number): unknown {
  skipWhitespace();
  const c = text.charCodeAt(i);
  if (c === 0x7b) {
    if (depth >= MAX_JSON_DEPTH) fail(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
    i++;
    const obj = Object.create(null) as Record<string, unknown>;
    skipWhitespace();
    if (text.charCodeAt(i) === 0x7d) {
      i++;
      return obj;
    }
    for (;;) {
      skipWhitespace();
      if (text.charCodeAt(i) !== 0x22) fail('expected a property name');
      const key = parseString();
      skipWhitespace();
      if (text.charCodeAt(i) !== 0x3a) fail("expected ':'");
      i++;
      obj[key] = parseValue(depth + 1);
      skipWhitespace();
      const next = text.charCodeAt(i);
      if (next === 0x2c) i++;
      else if (next === 0x7d) {
        i++;
        return obj;
      } else fail("expected ',' or '}'");
    }
  }
  if (c === 0x5b) {
    if (depth >= MAX_JSON_DEPTH) fail(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
    i++;
    const arr: unknown[] = [];
    skipWhitespace();
    if (text.charCodeAt(i) === 0x5d) {
      i++;
      return arr;
    }
    for (;;) {
      arr.push(parseValue(depth + 1));
      skipWhitespace();
      const next = text.charCodeAt(i);
      if (next === 0x2c) i++;
      else if (next === 0x5d) {
        i++;
        return arr;
      } else fail("expected ',' or ']'");
    }
  }
  if (c === 0x22) return parseString();
  // By the first character: a number is tried without first testing for three literals.
  if (c === 0x74 && text.startsWith('true', i)) return ((i += 4), true);
  if (c === 0x66 && text.startsWith('false', i)) return ((i += 5), false);
  if (c === 0x6e && text.startsWith('null', i)) return ((i += 4), null);
  return parseNumber();
}
