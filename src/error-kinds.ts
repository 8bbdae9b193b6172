import { ErrorCode } from './errors.js';
import type { JsonObject } from './openapi-types.js';

/** One kind of error answer: its status, the codes its body may carry, what it means. */
export interface ErrorKind {
  status: number;
  codes: string[];
  description: string;
  headers?: Record<string, JsonObject>;
}

/** Every error status the pipeline can answer, by component name (a definition's `responses` name them). */
export const errorKinds = {
  BadRequest: {
    status: 400,
    codes: [ErrorCode.invalidRequest, ErrorCode.invalidJson],
    description: 'Invalid parameters or body; `details` names every offending field of a failed validation.',
  },
  Unauthorized: {
    status: 401,
    codes: [ErrorCode.unauthorized],
    description: 'Missing or invalid API key (checked before anything else under the base path).',
    headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWWAuthenticate' } },
  },
  NotFound: { status: 404, codes: [ErrorCode.notFound], description: 'The requested resource does not exist.' },
  MethodNotAllowed: {
    status: 405,
    codes: [ErrorCode.methodNotAllowed],
    description: 'The path exists but not with this method.',
    headers: { Allow: { $ref: '#/components/headers/Allow' } },
  },
  RequestTimeout: {
    status: 408,
    codes: [ErrorCode.requestTimeout],
    description: 'The body arrived too slowly (a server adapter bounds its time, e.g. `petstore-router/node`); the connection is closed.',
  },
  Conflict: {
    status: 409,
    codes: [ErrorCode.conflict],
    description: 'A request with this `Idempotency-Key` is still in progress; retry later.',
    headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
  },
  Gone: { status: 410, codes: [ErrorCode.gone], description: 'The operation has been removed (past its sunset).' },
  PayloadTooLarge: { status: 413, codes: [ErrorCode.payloadTooLarge], description: 'The body exceeds 65,536 bytes.' },
  UnsupportedMediaType: {
    status: 415,
    codes: [ErrorCode.unsupportedMediaType],
    description: 'The body is not `application/json`.',
  },
  UnprocessableContent: {
    status: 422,
    codes: [ErrorCode.unprocessable],
    description: 'This `Idempotency-Key` was already used with another request.',
  },
  RateLimited: {
    status: 429,
    codes: [ErrorCode.rateLimited],
    description: 'This API key made more requests than the configured rate limit allows in the current window.',
    headers: {
      'Retry-After': { $ref: '#/components/headers/RetryAfter' },
      RateLimit: { $ref: '#/components/headers/RateLimit' },
      'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
    },
  },
  InternalError: { status: 500, codes: [ErrorCode.internalError], description: 'Server failure (the message is masked).' },
  ServiceUnavailable: {
    status: 503,
    codes: [ErrorCode.serviceUnavailable, ErrorCode.overloaded, ErrorCode.databaseNotMigrated, ErrorCode.databaseClosed],
    description:
      'The database cannot be reached (`service_unavailable`), or the server is at its bound of requests in flight (`overloaded`, only with load shedding on): retry after `Retry-After`; or the database is not migrated (`database_not_migrated`), or was closed under the store (`database_closed`).',
    headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
  },
} satisfies Record<string, ErrorKind>;
