/**
 * The body an in-process caller built its Request from, when the runtime kept it at hand.
 *
 * Node.js 20's fetch (undici 6) keeps a Request's body twice: as a web ReadableStream, and as the
 * string or bytes it was constructed from (`{ stream, source, length }` under the instance's
 * `Symbol(state)`). Reading the stream costs far more than its own few microseconds on Node 20:
 * each stream is a C++-backed transferable object, and a create on PGlite measured 16-35 us slower
 * with a stream read between inserts than without (docs/performance.md, item 21). Taking the source
 * gives the very bytes the stream would deliver, without it.
 *
 * Only an unused body of the runtime's own Request class, with a string or byte source, qualifies;
 * anything else (Node 24's undici 7 keeps its state in private fields, Deno, Bun, a ReadableStream
 * body, a subclass, a used or locked body) returns undefined and is read through the stream as
 * before. The stream is left untouched, so `request.bodyUsed` stays false (docs/decisions.md,
 * "Request bodies").
 */

/** What the state holds for a body built from a string or bytes. */
interface BodyState {
  source: unknown;
  length: unknown;
}

/** The runtime's state key, once looked up: a symbol, or null where there is none. */
let stateKey: symbol | null | undefined;

function findStateKey(request: Request): symbol | null {
  for (const key of Object.getOwnPropertySymbols(request)) {
    if (key.description !== 'state') continue;
    const state = (request as unknown as Record<symbol, unknown>)[key];
    if (state !== null && typeof state === 'object' && 'body' in state && 'method' in state) return key;
  }
  return null;
}

/**
 * The body `request` was constructed with, as a string (its UTF-16 text) or bytes, with its size
 * in UTF-8 bytes; undefined when the runtime does not keep it or the Request does not qualify.
 */
export function requestSource(request: Request): { source: string | Uint8Array; byteLength: number } | undefined {
  if (typeof Request !== 'function' || Object.getPrototypeOf(request) !== Request.prototype) return undefined;
  if (stateKey === undefined) stateKey = findStateKey(request);
  // Used or locked (a reader taken, nothing read yet): the stream path tells the caller so.
  if (stateKey === null || request.bodyUsed || request.body?.locked) return undefined;
  const body = ((request as unknown as Record<symbol, unknown>)[stateKey] as { body?: BodyState | null } | undefined)?.body;
  if (body === null || body === undefined || typeof body.length !== 'number') return undefined;
  const { source, length } = body;
  if (typeof source === 'string') return { source, byteLength: length };
  // Bytes are handed to the stream itself, which transfers (empties) them when it is read: a
  // clone shares them with the original, so once either was read the other's source is empty.
  if (source instanceof Uint8Array && source.byteLength === length) return { source, byteLength: length };
  return undefined;
}
