import { isPlainUrl } from './plain-url.js';

/** What the routes read of a request's URL. A `URL` has all of it. */
export interface RequestUrl {
  readonly origin: string;
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/** An http(s) URL's scheme, host, path and optional query, with no user info and no fragment. */
const HREF_PARTS = /^(https?):\/\/([^/?#@]*)(\/[^?#]*)(\?[^#]*)?$/;

/** The parts of a plain href; the query is parsed only if a route reads it. */
class PlainUrl implements RequestUrl {
  #params: URLSearchParams | undefined;
  constructor(
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
  return new PlainUrl(`${scheme}://${host}`, path, query);
}
