import { ErrorCode, RETRY_AFTER_SECONDS } from '../errors.js';
import type { JsonObject } from '../openapi-types.js';
import { type ErrorKind, errorKinds } from '../error-kinds.js';

const JSON_TYPE = 'application/json';

/** `components.schemas` of the Error body: `code` lists every value of `ErrorCode`. */
export const errorSchemas: Record<string, JsonObject> = {
  Error: {
    type: 'object',
    description: 'The body of every error answer.',
    properties: {
      code: { type: 'string', enum: Object.values(ErrorCode), description: 'Machine-readable error code; the set is stable.' },
      message: { type: 'string', description: 'Human-readable description of the error. Never contains keys, SQL or stacks.' },
      status: { type: 'integer', minimum: 100, maximum: 599, description: 'The HTTP status code of the response, repeated.' },
      details: {
        type: 'array',
        description: 'Every offending field of a request that failed validation.',
        items: { $ref: '#/components/schemas/ErrorDetail' },
      },
    },
    required: ['code', 'message', 'status'],
  },
  ErrorDetail: {
    type: 'object',
    description: 'One offending field.',
    properties: {
      path: { type: 'string', description: 'The dotted field name (`limit`, `name`); empty for the body as a whole.' },
      message: { type: 'string', description: 'What is wrong with it.' },
    },
    required: ['path', 'message'],
  },
};

/** `components.headers`: the headers the pipeline sends, described once. */
export const headers: Record<string, JsonObject> = {
  WWWAuthenticate: {
    description: 'RFC 6750 challenge; `error="invalid_token"` when a key was sent but is not accepted.',
    required: true,
    schema: { type: 'string', pattern: '^Bearer( error="(invalid_request|invalid_token)")?$' },
  },
  Allow: {
    description: 'The methods this path answers (HEAD wherever GET is).',
    required: true,
    schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$', examples: ['GET, HEAD, POST'] },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 0, examples: [RETRY_AFTER_SECONDS] },
  },
  LinkNext: {
    description:
      'RFC 8288 link to the next page, present only when more results exist. Its opaque `cursor` parameter ' +
      'and the repeated `limit` (and `status`) are all a client needs: follow it as is.',
    schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
  },
  IdempotentReplayed: {
    description: '`true` on an answer replayed from an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', const: 'true' },
  },
  ETag: {
    description: 'Validator of this answer (from its body and `Link`): send it back in `If-None-Match` to get a 304 while it holds.',
    required: true,
    schema: { type: 'string', pattern: '^"[^"]*"$' },
  },
  CacheControl: {
    description: 'Clients may keep the answer but must revalidate it (`If-None-Match`) before each use.',
    required: true,
    schema: { type: 'string', const: 'private, no-cache' },
  },
  RateLimitPolicy: {
    description:
      'With a rate limit configured (draft-ietf-httpapi-ratelimit-headers-11): requests per key (`q`) per window of `w` seconds.',
    schema: { type: 'string', pattern: '^"default";q=[0-9]+;w=[0-9]+$', examples: ['"default";q=100;w=60'] },
  },
  RateLimit: {
    description: 'With a rate limit configured: requests left in the window (`r`) and seconds until it ends (`t`).',
    schema: { type: 'string', pattern: '^"default";r=[0-9]+;t=[0-9]+$', examples: ['"default";r=42;t=17'] },
  },
  Location: {
    description: 'The URL of the created resource.',
    required: true,
    schema: { type: 'string', format: 'uri' },
  },
};

/**
 * The headers of every answer of a deprecated operation after authentication (RFC 9745, RFC
 * 8594), given its successor's path (`/pets`) and how to name it in prose.
 */
export function deprecationHeaders(
  deprecatedAt: Date,
  sunsetAt: Date,
  successorPath: string,
  successor: string,
): Record<string, JsonObject> {
  return {
    Deprecation: {
      description: 'RFC 9745: when the operation was deprecated, as `@<unix seconds>`.',
      required: true,
      schema: { type: 'string', pattern: '^@-?[0-9]+$', examples: [`@${Math.floor(deprecatedAt.getTime() / 1000)}`] },
    },
    Sunset: {
      description: 'RFC 8594: when the operation stops working (410 Gone from then on).',
      required: true,
      schema: { type: 'string', examples: [sunsetAt.toUTCString()] },
    },
    Link: {
      description: `The successor: ${successor}.`,
      required: true,
      schema: { type: 'string', pattern: `^<[^>]+${successorPath}>; rel="successor-version"$` },
    },
  };
}

/** One error response object; `extraHeaders` for operations that add their own (getPet). */
export function errorResponse(kind: ErrorKind, extraHeaders?: Record<string, JsonObject>): JsonObject {
  const schema = {
    allOf: [
      { $ref: '#/components/schemas/Error' },
      {
        type: 'object',
        properties: {
          code: kind.codes.length === 1 ? { const: kind.codes[0] } : { enum: kind.codes },
          status: { const: kind.status },
        },
      },
    ],
  };
  const all = { ...kind.headers, ...extraHeaders };
  return {
    description: kind.description,
    ...(Object.keys(all).length ? { headers: all } : {}),
    content: { [JSON_TYPE]: { schema } },
  };
}

/**
 * `components.responses`: the error kinds operations `$ref`, plus `NotFound` and
 * `MethodNotAllowed`, which also describe answers no operation owns (unknown paths, other
 * methods). `Gone` is only ever answered by getPet, which writes it inline with its headers.
 */
export function errorResponses(): Record<string, JsonObject> {
  return Object.fromEntries(
    Object.entries(errorKinds)
      .filter(([name]) => name !== 'Gone')
      .map(([name, kind]) => [name, errorResponse(kind)]),
  );
}
