import { databaseFailureOf } from '../drivers/failure.js';
import { ApiError, ErrorCode } from './errors.js';

/** What a client (and the health check) is told when the store's tables are missing or behind. */
export const NOT_MIGRATED_MESSAGE =
  "the database is not migrated for this version of petstore-router: run `petstore-router migrate --database URL`, or `await migrate(db)` from 'petstore-router' before createPetStore";

/** What a client (and the health check) is told after the store's database was closed. */
export const CLOSED_MESSAGE = "this store's database has been closed (db.destroy() or the test store's close()): create a new store";

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
