import { isPlainUrl } from './plain-url.js';

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

/** An http(s) URL's scheme, host, path and optional query, with no user info and no fragment. */
const HREF_PARTS = /^(https?):\/\/([^/?#@]*)(\/[^?#]*)(\?[^#]*)?$/;

/** The parts of a plain href; the query is parsed only if a route reads it. */
class PlainUrl implements TargetUrl {
  #params: URLSearchParams | undefined;
  constructor(
    readonly href: string,
    readonly origin: string,
    readonly pathname: string,
    private readonly search: string,
  ) {}

  get searchParams(): URLSearchParams {
    return (this.#params ??= new URLSearchParams(this.search));
  }
}

/**
 * The parts of `request.url`: slices of its text when the URL is plain (plain-url.ts: exactly what
 * `new URL()` would serialise, so the slices are its parts), else `new URL()`. Not every runtime
 * serialises `Request.url` (Deno's server keeps the raw path and Host header: `/v1/./pets`,
 * `localhost:80`), so plainness is checked on the text itself, not assumed.
 */
export function requestUrl(href: string): RequestUrl {
  const parts = HREF_PARTS.exec(href);
  if (parts === null) return new URL(href);
  const [, scheme, host, path, query = ''] = parts as unknown as [string, string, string, string, string | undefined];
  if (!isPlainUrl(scheme, host, path + query)) return new URL(href);
  return new PlainUrl(href, `${scheme}://${host}`, path, query);
}

/**
 * The URL of a request to `host` for `target` (a request line's path and query) as `new URL()`
 * serialises it, with its parts: built as text when it is plain (plain-url.ts), else parsed;
 * undefined where `new URL()` refuses it. For adapters building a Request's URL cheaply.
 *
 * @example
 * ```ts
 * import { targetUrl } from 'petstore-router'
 *
 * targetUrl('http', 'localhost:8080', '/v1/pets?limit=2')?.href // 'http://localhost:8080/v1/pets?limit=2'
 * ```
 */
export function targetUrl(scheme: 'http' | 'https', host: string, target: string): TargetUrl | undefined {
  if (isPlainUrl(scheme, host, target)) {
    const query = target.indexOf('?');
    const origin = `${scheme}://${host}`;
    return query === -1
      ? new PlainUrl(origin + target, origin, target, '')
      : new PlainUrl(origin + target, origin, target.slice(0, query), target.slice(query));
  }
  try {
    return new URL(`${scheme}://${host}${target}`);
  } catch {
    return undefined;
  }
}
