import { isDatabaseUnavailable } from '../drivers/errors.js';
import { databaseFailureError } from './database-failure.js';
import { ApiError, ErrorCode, RETRY_AFTER_SECONDS } from '../errors.js';
import { type JsonAnswer, jsonResponse } from '../http/json-write.js';

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
