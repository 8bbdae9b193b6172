import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, NODE_HANDLER_OPTION_NAMES, checkNodeHandlerOptions } from 'petstore-router';
import { writeError } from './errors.js';
import type { BodyLimits, BodyState } from './body-reader.js';
import { lacksRequiredHost } from './host.js';
import { toRequest } from './request.js';
import { AnswerBatch, NodeJsonResponse, writeResponse } from './response.js';

/** Anything with a web-standard `fetch`: a `PetStore`, a Hono app, ... */
export interface FetchHandler {
  fetch(request: Request): Promise<Response> | Response;
}

/** Options of {@link createNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Called with anything the handler threw or rejected with (the client gets a masked 500).
   * @default logs to console.error
   */
  onError?: (error: unknown) => void;
  /**
   * The most request body bytes the bridge reads: past them reading stops, the body read fails
   * with a 413 Error (which the store answers) and the connection closes after the answer. The
   * store caps its own bodies anyway (`MAX_BODY_BYTES`); this bounds what any handler can read.
   * @default Infinity (no cap of the bridge's own)
   * @example
   * ```ts
   * createNodeHandler(app, { maxBodyBytes: 1024 * 1024 })
   * ```
   */
  maxBodyBytes?: number;
  /**
   * A request body must arrive within this many milliseconds of when its read began, plus one
   * second per `minBodyBytesPerSecond` bytes received; else the read fails with a 408 Error
   * (`request_timeout`, which the store answers) and the connection closes after the answer. A
   * large body at a fair rate always fits; a drip of a byte a second does not. `Infinity`: no bound.
   * @default 5_000
   */
  bodyTimeout?: number;
  /** See `bodyTimeout`. @default 1_024 */
  minBodyBytesPerSecond?: number;
  /**
   * Write the store's JSON answers made in one event-loop turn together at its end, rather than
   * each at once: each answer's bytes are the same, and the server spends less CPU waking its
   * clients (docs/performance.md, fast path `batched-writes`). An answer waits at most for the
   * other I/O callbacks of its turn. `false` writes every answer as soon as it is ready.
   * @default true
   * @example
   * ```ts
   * createNodeHandler(store, { batchWrites: false })
   * ```
   */
  batchWrites?: boolean;
}

/** A body's bound: 5 s, plus a second per KiB received (a 64 KiB body may take 69 s at 1 KiB/s). */
const DEFAULT_BODY_TIMEOUT_MS = 5_000;
const DEFAULT_MIN_BODY_BYTES_PER_SECOND = 1_024;

// NODE_HANDLER_OPTION_NAMES names exactly the options above (a name missing on either side fails to compile).
type Named = (typeof NODE_HANDLER_OPTION_NAMES)[number];
const optionNamesMatch: [Named, keyof NodeHandlerOptions] extends [keyof NodeHandlerOptions, Named] ? true : never = true;
void optionNamesMatch;

/** A `node:http` request listener. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Turns a fetch handler into a `node:http` request listener: the body is streamed in on demand
 * (capped at `maxBodyBytes`, 413 past it), a client disconnect aborts `request.signal`, a handler
 * that throws gets a 500 Error body (or, once headers are out, a destroyed socket: never a hung
 * one). The Request is lazy (request.ts): its URL, header reads and body cost little. A store
 * created with `createResponse: nodeResponse` has its JSON answers written in one call each,
 * together with the others of their event-loop turn (`batchWrites`).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { createNodeHandler } from 'petstore-router/node'
 *
 * createServer(createNodeHandler(store)).listen(8080)
 * ```
 */
export function createNodeHandler(handler: FetchHandler, options: NodeHandlerOptions = {}): NodeListener {
  checkNodeHandlerOptions(options);
  const onError = options.onError ?? defaultOnError;
  const limits: BodyLimits = {
    maxBytes: options.maxBodyBytes ?? Number.POSITIVE_INFINITY,
    timeoutMs: options.bodyTimeout ?? DEFAULT_BODY_TIMEOUT_MS,
    minBytesPerSecond: options.minBodyBytesPerSecond ?? DEFAULT_MIN_BODY_BYTES_PER_SECOND,
  };
  const batchWrites = options.batchWrites ?? true;
  const batch = batchWrites ? new AnswerBatch((res, error, close) => failed(res, error, onError, close)) : undefined;
  return (req, res) => {
    handle(handler, req, res, onError, limits, batch).catch((error) => {
      // Only reached by a bug in the bridge itself: still never leave the socket hanging.
      onError(error);
      res.destroy();
    });
  };
}

async function handle(
  handler: FetchHandler,
  req: IncomingMessage,
  res: ServerResponse,
  onError: (error: unknown) => void,
  limits: BodyLimits,
  batch: AnswerBatch | undefined,
) {
  if (lacksRequiredHost(req)) {
    writeError(res, 400, ErrorCode.invalidRequest, 'an HTTP/1.1 request must carry a Host header', true);
    return;
  }
  const body: BodyState = { started: false, overCap: false, cancelled: false };
  // The lazy request builds headers, signal and the platform Request only if the handler reads
  // them; it watches for a disconnect itself, from the first read of its signal.
  const request = toRequest(req, res, body, limits);
  if (request === undefined) {
    writeError(res, 400, ErrorCode.invalidRequest, 'the request target or its Host header does not make a valid URL');
    return;
  }
  // Close the connection rather than keep reading a body we stopped reading: past the cap, or
  // partly read, or refused as too large (Node would otherwise read and discard it all).
  const mustClose = (status: number) => body.overCap || (!req.complete && (body.started || status === 413));
  let response: Response;
  try {
    response = await handler.fetch(request);
    if (
      !response ||
      typeof response.status !== 'number' ||
      // Our own answer first: naming the global Response would load Node's fetch implementation (inherit.ts).
      !(
        response instanceof NodeJsonResponse ||
        response instanceof Response ||
        (response as { headers?: unknown }).headers instanceof Headers
      )
    ) {
      throw new TypeError('the fetch handler did not return a Response');
    }
  } catch (error) {
    if (res.destroyed) return; // the client left; the rejection is most likely the abort itself
    if (body.overCap && !res.headersSent) {
      // The handler failed on a body past the bridge's cap: the client's doing, answered as such.
      writeError(res, 413, ErrorCode.payloadTooLarge, `the request body exceeds ${limits.maxBytes} bytes`, true);
      return;
    }
    failed(res, error, onError, mustClose(500));
    return;
  }
  try {
    const writing = writeResponse(res, response, mustClose(response.status), batch);
    if (writing) await writing;
  } catch (error) {
    if (res.destroyed) return;
    failed(res, error, onError, mustClose(500));
  }
}

/**
 * The handler failed, or writing its answer did: `onError` hears why, the client gets a masked 500
 * Error body, or a destroyed socket once headers are out (never a hung one).
 */
function failed(res: ServerResponse, error: unknown, onError: (error: unknown) => void, close: boolean): void {
  onError(error);
  if (res.headersSent) res.destroy();
  else writeError(res, 500, ErrorCode.internalError, 'internal server error', close);
}

function defaultOnError(error: unknown): void {
  console.error('petstore-router/node: the request handler failed:', error);
}
