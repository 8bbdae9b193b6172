import { isDatabaseUnavailable } from '../storage/driver-errors.js';
import { ApiError, ErrorCode } from './errors.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Seconds a client should wait before retrying when the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The body text of a Response built by `jsonResponse`, kept on it under this registered symbol so
 * a server adapter (adapters/node) can write the answer in one call without reading the body
 * stream back: on Node 20 reading a Response body costs about 45 us, a quarter of a request's
 * server CPU (docs/performance.md). Adapters use it only while `bodyUsed` is false and fall back
 * to the stream for any other Response, so a wrapped or rebuilt Response stays correct.
 */
export const BODY_TEXT: unique symbol = Symbol.for('petstore-router.bodyText') as never;

/** A JSON response from an already-serialised body (bodies are written exactly, see json-write). */
export function jsonResponse(status: number, body: string, headers?: Record<string, string>): Response {
  const response = new Response(body, { status, headers: { 'content-type': JSON_TYPE, ...headers } });
  (response as Response & { [BODY_TEXT]?: string })[BODY_TEXT] = body;
  return response;
}

/**
 * Classifies anything thrown while serving a request: an ApiError stays itself; a database that
 * cannot be reached becomes 503 + Retry-After; anything else is a masked 500 (no stack, no SQL).
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    return new ApiError(503, ErrorCode.serviceUnavailable, 'the database is unavailable, retry later', undefined, {
      'retry-after': String(RETRY_AFTER_SECONDS),
    }, { cause: error });
  }
  return new ApiError(500, ErrorCode.internalError, 'internal server error', undefined, undefined, { cause: error });
}

/** The one place an error becomes a Response. */
export function errorResponse(error: ApiError, extraHeaders?: Record<string, string>): Response {
  return jsonResponse(error.status, JSON.stringify(error.toBody()), { ...error.headers, ...extraHeaders });
}

/** HEAD: the GET answer's status and headers, no body. */
export function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, headers: response.headers });
}
