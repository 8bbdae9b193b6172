import { ApiError, ErrorCode } from '../errors.js';
import { JsonSyntaxError, parseJson } from './json-parse.js';

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
 * JSON value that is not an object.
 */
export async function readJsonObject(request: Request, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const type = request.headers.get('content-type');
  if (type === null || !JSON_MEDIA_TYPE.test(type.trim())) {
    throw new ApiError(415, ErrorCode.unsupportedMediaType, 'the request body must be application/json');
  }
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);

  const text = decodeUtf8(await readBytes(request, maxBytes));
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

/** The whole body of `request`, at most `maxBytes` of it, through `request.body`. */
function readBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (request.body === null) return Promise.resolve(new Uint8Array(0));
  // An in-process caller may hand over a Request whose body it has read or locked: its mistake,
  // told as such, not a 500 from getReader's TypeError.
  if (request.bodyUsed || request.body.locked) {
    return Promise.reject(new ApiError(400, ErrorCode.invalidRequest, 'the request body has already been read'));
  }
  return readCapped(request.body.getReader(), maxBytes, request.signal);
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
