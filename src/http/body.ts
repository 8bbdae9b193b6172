import { ApiError, ErrorCode } from './errors.js';
import { requestHeader } from './header.js';
import { JsonSyntaxError, parseJson } from './json-parse.js';
import { requestSource } from './request-source.js';

/** Request bodies larger than this are refused with 413, counted while streaming. */
export const MAX_BODY_BYTES = 65_536;

const JSON_MEDIA_TYPE = /^application\/json\s*(?:;|$)/i;

/**
 * One strict decoder for every body: creating a TextDecoder opens an ICU converter (~2 us per
 * request on Node 20), and `decode()` without `{ stream: true }` starts from a clean state each time.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * A server adapter of ours (adapters/node) offers, under this registered symbol, to read the whole
 * body as bytes itself, capped: no web stream and no AbortSignal, ~13% of a create's server CPU on
 * Node 20 (docs/performance.md). It resolves to null past the cap, rejects when the body cannot be
 * read to its end, and returns undefined when the body stream was already handed out.
 */
const READ_BODY = Symbol.for('petstore-router.readBody');
type ReadBody = (maxBytes: number) => Promise<Uint8Array | null> | undefined;

/**
 * Reads a JSON object body: 415 unless the media type is application/json (any case, parameters
 * allowed), 413 past `MAX_BODY_BYTES` (checked against Content-Length first, then while reading,
 * because Content-Length may be absent or wrong), 400 for bytes that are not UTF-8 JSON or a
 * JSON value that is not an object.
 */
export async function readJsonObject(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const type = requestHeader(request, 'content-type');
  if (type === null || !JSON_MEDIA_TYPE.test(type.trim())) {
    throw new ApiError(415, ErrorCode.unsupportedMediaType, 'the request body must be application/json');
  }
  const declared = requestHeader(request, 'content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);

  const read = readText(request, maxBytes);
  const text = typeof read === 'string' ? read : await read;
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

/**
 * The whole body as text, read the cheapest way available: by our Node adapter itself, from the
 * string or bytes the caller's Request holds (request-source.ts; no wait at all), else through the
 * web stream. Not async itself: each async layer costs promise hops on every create.
 */
function readText(request: Request, maxBytes: number): string | Promise<string> {
  const direct = (request as Request & { [READ_BODY]?: ReadBody })[READ_BODY]?.(maxBytes);
  if (direct) return readDirect(direct, maxBytes);
  const held = requestSource(request);
  if (held === undefined) return readCapped(request, maxBytes).then(decodeUtf8);
  // As readCapped would end, in its order: the caller's signal aborted, or past the cap.
  if (request.signal.aborted) throw unreadable();
  if (held.byteLength > maxBytes) throw tooLarge(maxBytes);
  if (typeof held.source !== 'string') return decodeUtf8(held.source);
  // The text UTF8 would give for the string's bytes: without one leading byte order mark. (Lone
  // surrogates need nothing: the Request constructor keeps the string as a USVString, U+FFFD in
  // their place, as encoding would; request-source.test.ts checks both.)
  return held.source.charCodeAt(0) === 0xfeff ? held.source.slice(1) : held.source;
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

async function readDirect(read: Promise<Uint8Array | null>, maxBytes: number): Promise<string> {
  let bytes: Uint8Array | null;
  try {
    bytes = await read;
  } catch (error) {
    throw error instanceof ApiError ? error : unreadable();
  }
  if (bytes === null) throw tooLarge(maxBytes);
  return decodeUtf8(bytes);
}

const noop = () => undefined;

/** Settles after four microtask turns (an undici body's first read settles after two on Node 20). */
function shortly(): Promise<undefined> {
  return Promise.resolve(undefined).then(noop).then(noop).then(noop);
}

async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  // An in-process caller may hand over a Request whose body it has read or locked: its mistake,
  // told as such, not a 500 from getReader's TypeError.
  if (request.bodyUsed || request.body.locked) {
    throw new ApiError(400, ErrorCode.invalidRequest, 'the request body has already been read');
  }
  const reader = request.body.getReader();
  // A client that goes away mid-upload must not leave this read pending forever: a read still
  // pending after a few microtask turns is watched through `request.signal`. One that settles
  // before had its bytes at hand (an in-process caller's body) and cannot hang; skipping the
  // watch there saves an addEventListener/removeEventListener pair, ~3.5 us on Node 20.
  const onAbort = () => void reader.cancel().catch(() => {});
  let watching = false;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array> | undefined;
      try {
        const read = reader.read();
        result = watching ? await read : await Promise.race([read, shortly()]);
        if (result === undefined) {
          watching = true;
          request.signal.addEventListener('abort', onAbort, { once: true });
          if (request.signal.aborted) onAbort();
          result = await read;
        }
      } catch (error) {
        // An adapter may end the stream with an ApiError of its own (413 at its cap): keep it.
        // Any other broken upload is the client's doing: not a 500, and never a 503 (an
        // ECONNRESET of the client's socket would otherwise read as "database unreachable").
        throw error instanceof ApiError ? error : unreadable();
      }
      const { done, value } = result;
      if (request.signal.aborted) throw unreadable();
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
    if (watching) request.signal.removeEventListener('abort', onAbort);
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
