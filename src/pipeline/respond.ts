import type { DatabaseFailure } from '../drivers/contract.js';
import {
  ApiError,
  CLOSED_MESSAGE,
  ErrorCode,
  NOT_MIGRATED_MESSAGE,
  NOT_STORED_MESSAGE,
  OUTCOME_UNKNOWN_MESSAGE,
  RETRY_AFTER_SECONDS,
  UNAVAILABLE_MESSAGE,
} from '../errors.js';
import { type JsonAnswer, jsonResponse } from '../http/answer.js';

const RETRY = { 'retry-after': String(RETRY_AFTER_SECONDS) };

/**
 * Classifies anything thrown while serving a request: an ApiError stays itself; a database error
 * (`classify`: the database's own classifier, drivers/classify.ts) becomes its 503: not migrated
 * with Retry-After (it works once someone migrates), closed without (this store will not come
 * back), any other (unreachable, timed out, connection lost, not a primary) with Retry-After,
 * saying for a `write` whether it may have been stored (outcome unknown) or was not (refused, or
 * ended by the server at its bound);
 * anything else is a masked 500 (no stack, no SQL).
 */
export function toApiError(error: unknown, classify: (error: unknown) => DatabaseFailure | undefined, write = false): ApiError {
  if (error instanceof ApiError) return error;
  const failure = classify(error);
  const cause = { cause: error };
  switch (failure?.kind) {
    case undefined:
      return new ApiError({ status: 500, code: ErrorCode.internalError, message: 'internal server error', ...cause });
    case 'not_migrated':
      return new ApiError({ status: 503, code: ErrorCode.databaseNotMigrated, message: NOT_MIGRATED_MESSAGE, headers: RETRY, ...cause });
    case 'closed':
      return new ApiError({ status: 503, code: ErrorCode.databaseClosed, message: CLOSED_MESSAGE, ...cause });
    default: {
      // A write says whether it may have committed: a client retries a 'no' freely, a 'maybe' with its Idempotency-Key.
      const message = !write ? UNAVAILABLE_MESSAGE : failure?.stored === 'maybe' ? OUTCOME_UNKNOWN_MESSAGE : NOT_STORED_MESSAGE;
      return new ApiError({ status: 503, code: ErrorCode.serviceUnavailable, message, headers: RETRY, ...cause });
    }
  }
}

/** The one place an error becomes an answer. */
export function errorResponse(error: ApiError, extraHeaders?: Record<string, string>): JsonAnswer {
  return jsonResponse(error.status, JSON.stringify(error.toBody()), { ...error.headers, ...extraHeaders });
}
