import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from 'petstore-router';
import { writeError } from './errors.js';
import { lacksRequiredHost } from './host-header.js';
import { toLazyRequest } from './lazy-request.js';
import { type BodyState, toRequest } from './request.js';
import { writeResponse } from './response.js';

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
}

/** A `node:http` request listener. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Turns a fetch handler into a `node:http` request listener: the body is streamed in with the
 * 64 KiB cap, a client disconnect aborts `request.signal`, a handler that throws gets a 500 Error
 * body (or, once headers are out, a destroyed socket: never a hung one).
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
  const onError = options.onError ?? defaultOnError;
  return (req, res) => {
    handle(handler, req, res, onError).catch((error) => {
      // Only reached by a bug in the bridge itself: still never leave the socket hanging.
      onError(error);
      res.destroy();
    });
  };
}

async function handle(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, onError: (error: unknown) => void) {
  if (lacksRequiredHost(req)) {
    writeError(res, 400, ErrorCode.invalidRequest, 'an HTTP/1.1 request must carry a Host header', true);
    return;
  }
  const body: BodyState = { started: false, overCap: false };
  let request: Request;
  // The lazy request builds headers, signal and the undici Request only if the handler reads them;
  // it watches for a disconnect itself, from the first read of its signal.
  const lazy = toLazyRequest(req, res, body);
  if (lazy) {
    request = lazy;
  } else {
    const aborter = new AbortController();
    try {
      request = toRequest(req, aborter.signal, body);
    } catch {
      writeError(res, 400, ErrorCode.invalidRequest, 'the request target, a header or the method is not valid');
      return;
    }
    // 'close' before the response finished means the client went away.
    res.once('close', () => {
      if (!res.writableFinished) aborter.abort(new DOMException('the client disconnected', 'AbortError'));
    });
  }
  // Close the connection rather than keep reading a body we stopped reading: past the cap, or
  // partly read, or refused as too large (Node would otherwise read and discard it all).
  const mustClose = (status: number) => body.overCap || (!req.complete && (body.started || status === 413));
  let response: Response;
  try {
    response = await handler.fetch(request);
    if (!response || typeof response.status !== 'number' || !(response instanceof Response || (response as { headers?: unknown }).headers instanceof Headers)) {
      throw new TypeError('the fetch handler did not return a Response');
    }
  } catch (error) {
    if (res.destroyed) return; // the client left; the rejection is most likely the abort itself
    onError(error);
    if (res.headersSent) res.destroy();
    else writeError(res, 500, ErrorCode.internalError, 'internal server error', mustClose(500));
    return;
  }
  try {
    const writing = writeResponse(res, response, mustClose(response.status));
    if (writing) await writing;
  } catch (error) {
    if (res.destroyed) return;
    onError(error);
    if (res.headersSent) res.destroy();
    else writeError(res, 500, ErrorCode.internalError, 'internal server error', mustClose(500));
  }
}

function defaultOnError(error: unknown): void {
  console.error('petstore-router/node: the request handler failed:', error);
}
