import { ApiError, ErrorCode } from '../errors.js';
import { JsonSyntaxError, parseJson } from './json-parse.js';

// Reading a JSON request body: the capped read of its bytes, then the parse (json-parse.ts).

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
      throw new ApiError({ status: 415, code: ErrorCode.unsupportedMediaType, message: 'the request body must be application/json' });
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
  if (text.trim() === '') throw new ApiError({ status: 400, code: ErrorCode.invalidJson, message: 'the request body is empty' });
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError)
      throw new ApiError({ status: 400, code: ErrorCode.invalidJson, message: `malformed JSON: ${error.message}` });
    throw error;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError({
      status: 400,
      code: ErrorCode.invalidRequest,
      message: 'the request body must be a JSON object',
      details: [{ path: '', message: 'must be a JSON object' }],
    });
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
  return new ApiError({ status: 400, code: ErrorCode.invalidRequest, message: 'the request body has already been read' });
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ApiError({ status: 400, code: ErrorCode.invalidJson, message: 'the request body is not valid UTF-8' });
  }
}

function unreadable(): ApiError {
  return new ApiError({ status: 400, code: ErrorCode.invalidRequest, message: 'the request body could not be read to its end' });
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError({ status: 413, code: ErrorCode.payloadTooLarge, message: `the request body exceeds ${maxBytes} bytes` });
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
        // Any other broken upload is the client's doing: not a 500, and never a 503 (a
        // reset of the client's socket would otherwise read as "database unreachable").
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
