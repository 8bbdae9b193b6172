import type { AdapterBindings } from '../bindings.js';
import { isDatabaseUnavailable } from '../storage/driver-errors.js';
import { databaseFailureError } from './database-failure.js';
import { ApiError, ErrorCode } from './errors.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Seconds a client should wait before retrying when the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * A JSON answer of a route, not yet a Response: status, header fields and the exact body text.
 * The pipeline turns it into the Response the caller gets (see {@link toResponse}), so route
 * headers are added to a plain object and an adapter may build the Response its own way.
 */
export class JsonAnswer {
  constructor(
    readonly status: number,
    readonly text: string,
    readonly headers: Record<string, string>,
  ) {}
}

/** What a route returns: a JSON answer, or a Response it built itself. */
export type Answer = JsonAnswer | Response;

/**
 * A JSON answer from an already-serialised body (bodies are written exactly, see json-write).
 * Named for what the caller gets in the end: the Response is built once, by {@link toResponse}.
 */
export function jsonResponse(status: number, body: string, headers?: Record<string, string>): JsonAnswer {
  return new JsonAnswer(status, body, { 'content-type': JSON_TYPE, ...headers });
}

/** One header field added to an answer (set, replacing any of the same name), with no object to build. */
export function setHeader(answer: Answer, name: string, value: string): void {
  if (answer instanceof JsonAnswer) answer.headers[name] = value;
  else answer.headers.set(name, value);
}

/** Route headers added to an answer (set, replacing any of the same name). */
export function setHeaders(answer: Answer, headers: Record<string, string>): void {
  if (answer instanceof JsonAnswer) Object.assign(answer.headers, headers);
  else for (const [name, value] of Object.entries(headers)) answer.headers.set(name, value);
}

/**
 * The Response the store returns for an answer: built by the adapter's factory when it gave one
 * (bindings.ts), else a standard Response. HEAD gets the status and headers without the body.
 */
export function toResponse(answer: Answer, method: string, bindings: AdapterBindings | undefined): Response {
  if (!(answer instanceof JsonAnswer)) return method === 'HEAD' ? withoutBody(answer) : answer;
  if (method === 'HEAD') return new Response(null, { status: answer.status, headers: answer.headers });
  // A JsonAnswer is the JsonAnswerParts the adapter's factory takes; nobody else holds it now.
  if (bindings?.jsonResponse) return bindings.jsonResponse(answer);
  return new Response(answer.text, { status: answer.status, headers: answer.headers });
}

/**
 * Classifies anything thrown while serving a request: an ApiError stays itself; a database that
 * cannot be reached becomes 503 + Retry-After, one not migrated or closed its own 503
 * (database-failure.ts); anything else is a masked 500 (no stack, no SQL).
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const failure = databaseFailureError(error, RETRY_AFTER_SECONDS);
  if (failure) return failure;
  if (isDatabaseUnavailable(error)) {
    return new ApiError(
      503,
      ErrorCode.serviceUnavailable,
      'the database is unavailable, retry later',
      undefined,
      {
        'retry-after': String(RETRY_AFTER_SECONDS),
      },
      { cause: error },
    );
  }
  return new ApiError(500, ErrorCode.internalError, 'internal server error', undefined, undefined, { cause: error });
}

/** The one place an error becomes an answer. */
export function errorResponse(error: ApiError, extraHeaders?: Record<string, string>): JsonAnswer {
  return jsonResponse(error.status, JSON.stringify(error.toBody()), { ...error.headers, ...extraHeaders });
}

/** HEAD: the GET answer's status and headers, no body. */
function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, headers: response.headers });
}

/** A Response that is not a JSON answer: a 304, a CORS preflight's 204, the API reference page and its files. */
export function plainResponse(status: number, body: string | Uint8Array | null, headers: HeadersInit): Response {
  return new Response(body as BodyInit | null, { status, headers });
}
