/**
 * A request's URL and its parts, by `new URL()`. (A text fast path that sliced URLs already in the
 * form `new URL()` gives was measured and removed: it saved 0-2% of the server's CPU per request
 * on the scenarios it served, under the 3% a fast path must earn; docs/performance.md.)
 */

/** What the routes read of a request's URL. A `URL` has all of it. */
export interface RequestUrl {
  readonly origin: string;
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/** A request URL with its text: what {@link targetUrl} gives an adapter. */
export interface TargetUrl extends RequestUrl {
  readonly href: string;
}

/** The parts of `request.url` (origin, path, query) as `new URL()` gives them. */
export function requestUrl(href: string): RequestUrl {
  return new URL(href);
}

/**
 * The URL of a request to `host` for `target` (a request line's path and query) as `new URL()`
 * serialises it, with its parts; undefined where `new URL()` refuses it. For adapters building a
 * Request's URL from a request line and a Host header.
 *
 * @example
 * ```ts
 * import { targetUrl } from 'petstore-router'
 *
 * targetUrl('http', 'localhost:8080', '/v1/pets?limit=2')?.href // 'http://localhost:8080/v1/pets?limit=2'
 * ```
 */
export function targetUrl(scheme: 'http' | 'https', host: string, target: string): TargetUrl | undefined {
  try {
    return new URL(`${scheme}://${host}${target}`);
  } catch {
    return undefined;
  }
}
