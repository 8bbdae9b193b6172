import { CLOSED_MESSAGE, NOT_MIGRATED_MESSAGE, databaseFailureOf } from '../drivers/failure.js';
import { ApiError, ErrorCode } from '../errors.js';

/**
 * The 503 of a database failure that is not a fault of the request (drivers/failure.ts), or
 * undefined for any other error. Not migrated: `database_not_migrated` with Retry-After (it works
 * once someone migrates). Closed: `database_closed`, no Retry-After (this store will not come back).
 */
export function databaseFailureError(error: unknown, retryAfterSeconds: number): ApiError | undefined {
  switch (databaseFailureOf(error)) {
    case 'not_migrated':
      return new ApiError(
        503,
        ErrorCode.databaseNotMigrated,
        NOT_MIGRATED_MESSAGE,
        undefined,
        { 'retry-after': String(retryAfterSeconds) },
        { cause: error },
      );
    case 'closed':
      return new ApiError(503, ErrorCode.databaseClosed, CLOSED_MESSAGE, undefined, undefined, { cause: error });
    default:
      return undefined;
  }
}
