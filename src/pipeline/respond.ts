import { isDatabaseUnavailable } from '../drivers/errors.js';
import { databaseFailureError } from './database-failure.js';
import { ApiError, ErrorCode, RETRY_AFTER_SECONDS } from '../errors.js';
import { type Answer, JsonAnswer, jsonResponse } from '../http/answer.js';

/**
 * Builds the Response of a JSON answer: `text` as the body, `status`, and `headers` (lower-case
 * names; the object is the factory's to keep, nobody else holds it). It must return a standard
 * `Response` (an instance of `Response`) that reads as exactly these parts.
 */
export type ResponseFactory = (text: string, status: number, headers: Record<string, string>) => Response;

/** The standard factory: `new Response(text, { status, headers })`. */
export const standardResponse: ResponseFactory = (text, status, headers) => new Response(text, { status, headers });

/**
 * The Response the store returns for an answer, JSON answers built by `build` (the store's
 * `createResponse` option). HEAD gets the status and headers without the body.
 */
export function toResponse(answer: Answer, method: string, build: ResponseFactory): Response {
  if (!(answer instanceof JsonAnswer)) return method === 'HEAD' ? withoutBody(answer) : answer;
  if (method === 'HEAD') return new Response(null, { status: answer.status, headers: answer.headers });
  return build(answer.text, answer.status, answer.headers);
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
