import { errorKinds } from '../error-kinds.js';
import { errorResponse } from './responses.js';
import type { RouteDocumentation } from '../routes/define.js';
import type { JsonObject } from '../openapi-types.js';

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

const IF_NONE_MATCH: JsonObject = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'Entity tags from earlier answers (comma-separated, weak comparison) or `*`: a match is answered 304 without a body.',
  schema: { type: 'string' },
};

/**
 * Adds what the pipeline does for every operation to its shape: conditional GET on GET
 * operations (`If-None-Match`, `ETag` and `Cache-Control` on the 200, the 304) and the 429 of the
 * optional rate limit, with the `RateLimit` fields on every answer after authentication.
 */
export function withCachingAndLimits(
  { method }: RouteDocumentation,
  shape: JsonObject,
  routeHeaders: Record<string, JsonObject> | undefined,
): JsonObject {
  const limits = { RateLimit: header('RateLimit'), 'RateLimit-Policy': header('RateLimitPolicy') };
  const responses: Record<string, JsonObject> = {};
  for (const [status, response] of Object.entries(shape.responses as Record<string, JsonObject>)) {
    const inline = typeof response.$ref !== 'string';
    responses[status] =
      status === '401' || !inline ? response : { ...response, headers: { ...(response.headers as JsonObject), ...limits } };
  }
  const parameters = [...((shape.parameters as JsonObject[] | undefined) ?? [])];
  if (method === 'GET') {
    const ok = responses['200']!;
    responses['200'] = { ...ok, headers: { ...(ok.headers as JsonObject), ETag: header('ETag'), 'Cache-Control': header('CacheControl') } };
    responses['304'] = {
      description: 'Not modified: the `If-None-Match` tag still holds. No body; `ETag` and `Cache-Control` as on the 200.',
      headers: { ETag: header('ETag'), 'Cache-Control': header('CacheControl'), ...limits, ...routeHeaders },
    };
    parameters.push(IF_NONE_MATCH);
  }
  // A `$ref` cannot carry the route's own headers: an operation with some writes its 429 inline.
  const limited = errorResponse(errorKinds.RateLimited);
  responses['429'] = routeHeaders
    ? { ...limited, headers: { ...(limited.headers as JsonObject), ...routeHeaders } }
    : { $ref: '#/components/responses/RateLimited' };
  return { ...shape, responses, ...(parameters.length ? { parameters } : {}) };
}
