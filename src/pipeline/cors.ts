import { type Answer, JsonAnswer, plainResponse, setHeaders } from '../http/answer.js';
import { checkCors } from '../options/cors.js';

/**
 * Cross-origin access for browser apps (off by default). `origins` lists the allowed origins
 * exactly as browsers send them (`https://app.example`, with a port when not the default), or
 * `'*'` for any origin. Credentials are never allowed: the API key travels in `Authorization`,
 * which the page sets itself.
 */
export interface CorsOptions {
  origins: readonly string[] | '*';
  /** How long a browser may cache a preflight answer (`Access-Control-Max-Age`). @default 600 */
  maxAgeSeconds?: number;
}

/** What a browser may send besides the CORS-safelisted request headers. */
const ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, If-None-Match, X-Request-Id';

/**
 * Every non-safelisted response header the store sends (or, with rate limits and conditional GET,
 * may send), so a page can read all of them: on an error as much as on a success.
 */
const EXPOSE_HEADERS =
  'Allow, Deprecation, ETag, Idempotent-Replayed, Link, Location, RateLimit, RateLimit-Policy, Retry-After, Sunset, WWW-Authenticate, X-Request-Id';

export interface Cors {
  /** The `Access-Control-Allow-Origin` value for this request's `Origin`, or undefined (no CORS answer). */
  allowOrigin(request: Request): string | undefined;
  /** Whether the request is a preflight (`OPTIONS` with `Access-Control-Request-Method`). */
  isPreflight(request: Request): boolean;
  /** The 204 answer to a preflight; `methods` is the `Allow` list of the path (undefined: no such path). */
  preflight(allowOrigin: string, methods: string | undefined): Response;
  /** Adds the CORS headers of an actual answer to an allowed origin. */
  decorate(response: Answer, allowOrigin: string): void;
}

/** Checks the options once (options/cors.ts) and returns the CORS policy the pipeline applies. */
export function createCors(options: CorsOptions): Cors {
  const { origins, maxAgeSeconds: maxAge } = checkCors(options);
  const any = origins === '*';
  const allowed = new Set(any ? [] : origins);
  const maxAgeText = String(maxAge);

  return {
    allowOrigin(request) {
      const origin = request.headers.get('origin');
      if (origin === null) return undefined;
      if (any) return '*';
      return allowed.has(origin) ? origin : undefined;
    },
    isPreflight(request) {
      return request.method === 'OPTIONS' && request.headers.get('access-control-request-method') !== null;
    },
    preflight(allowOrigin, methods) {
      const headers: Record<string, string> = {
        'access-control-allow-origin': allowOrigin,
        vary: 'Origin',
        'access-control-allow-headers': ALLOW_HEADERS,
        'access-control-max-age': maxAgeText,
      };
      if (methods !== undefined) headers['access-control-allow-methods'] = methods;
      return plainResponse(204, null, headers);
    },
    decorate(response, allowOrigin) {
      const vary = response instanceof JsonAnswer ? (response.headers.vary ?? null) : response.headers.get('vary');
      setHeaders(response, {
        'access-control-allow-origin': allowOrigin,
        vary: vary === null || vary === '' ? 'Origin' : /(^|,)\s*origin\s*(,|$)/i.test(vary) ? vary : `${vary}, Origin`,
        'access-control-expose-headers': EXPOSE_HEADERS,
      });
    },
  };
}
