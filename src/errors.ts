/**
 * The one error type of the library. Everything that goes wrong while serving a request is
 * thrown (or returned) as an `ApiError`, and `respond.ts` turns it into a Response in one place.
 */

/** The stable set of Error `code` values, each in docs/errors.md; never renamed. */
export const ErrorCode = {
  invalidRequest: 'invalid_request',
  invalidJson: 'invalid_json',
  unauthorized: 'unauthorized',
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  gone: 'gone',
  conflict: 'conflict',
  requestTimeout: 'request_timeout',
  payloadTooLarge: 'payload_too_large',
  uriTooLong: 'uri_too_long',
  unsupportedMediaType: 'unsupported_media_type',
  unprocessable: 'unprocessable_content',
  headerFieldsTooLarge: 'header_fields_too_large',
  internalError: 'internal_error',
  serviceUnavailable: 'service_unavailable',
  databaseNotMigrated: 'database_not_migrated',
  databaseClosed: 'database_closed',
  overloaded: 'overloaded',
  rateLimited: 'rate_limited',
  bodyAlreadyParsed: 'body_already_parsed',
} as const;

/** One of the documented Error `code` values. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** One offending field of a request: `path` is the dotted field name (`limit`, `name`). */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** The JSON body of every error answer. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
  details?: ErrorDetail[];
}

/** What an {@link ApiError} is made of. */
export interface ApiErrorOptions {
  /** The HTTP status of the answer. */
  status: number;
  /** The stable code of the Error body (docs/errors.md). */
  code: ErrorCode;
  /** Safe to show to clients: no SQL, no stack, no secret. */
  message: string;
  /** The offending fields of a 400. */
  details?: ErrorDetail[] | undefined;
  /** Header fields of the answer (lower-case names), e.g. `retry-after`. */
  headers?: Record<string, string> | undefined;
  /** What caused it (kept for `onError`, never sent). */
  cause?: unknown;
}

/**
 * An error with an HTTP status, a stable code and a message safe to show to clients.
 *
 * @example
 * ```ts
 * throw new ApiError({ status: 404, code: ErrorCode.notFound, message: 'pet 7 does not exist' })
 * ```
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor({ status, code, message, details, headers, cause }: ApiErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  /** The Error body sent to the client. */
  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, status: this.status };
    if (this.details) body.details = this.details;
    return body;
  }
}

/** A 400 naming every offending field at once. */
export function invalidRequest(details: ErrorDetail[], message?: string): ApiError {
  const names = [...new Set(details.map((d) => d.path))].join(', ');
  return new ApiError({ status: 400, code: ErrorCode.invalidRequest, message: message ?? `invalid request: ${names}`, details });
}

/** Seconds a client should wait before retrying when the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

/** What a client (and the health check) is told when the database cannot serve now. */
export const UNAVAILABLE_MESSAGE = 'the database is unavailable, retry later';

/** A write sent to the database whose answer was lost (a failover, a timeout): it may have been stored. */
export const OUTCOME_UNKNOWN_MESSAGE =
  'the database was lost while this write was in flight: it may or may not have been stored; retry with the same Idempotency-Key to apply it once';

/** A write the database refused or ended unfinished (a statement past its bound, 57014): it was not stored. */
export const NOT_STORED_MESSAGE = 'the database could not complete this write now: nothing was stored; retry it later';

/** What a client (and the health check) is told when the store's tables are missing or behind. */
export const NOT_MIGRATED_MESSAGE =
  "the database is not migrated for this version of petstore-router: run `petstore-router migrate --database URL`, or `await migrate(db)` from 'petstore-router' before createPetStore";

/** What a client (and the health check) is told after the store's database was closed. */
export const CLOSED_MESSAGE = "this store's database has been closed (db.destroy() or the test store's close()): create a new store";
