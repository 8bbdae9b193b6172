/**
 * URLs that are already what `new URL()` serialises them to, so that they can be built and cut as
 * text: `new URL()` is a measurable cost per request (docs/performance.md, "Fast paths"), and the
 * usual request (a lowercase host name or IPv4 address, a path and query of plain characters)
 * needs none of its normalisation: no percent-encoding, no dot segments, no default port to drop,
 * no IDNA. `test/node-target.test.ts` and `test/request-url.test.ts` compare with `new URL()` on
 * generated inputs.
 */

/** A host name whose last label is not a number (an IPv4 parse). */
const PLAIN_NAME = /^(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*$/;
/** A canonical IPv4 address. */
const PLAIN_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
/** A port without leading zeros (`080` is 80). */
const PLAIN_PORT = /^[1-9]\d{0,4}$/;
/** Path and query characters `new URL()` keeps as they are (`'` is encoded in a query, so not here). */
const PLAIN_TARGET = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@/%]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/%?]*)?$/;
/** What may be a dot segment in a path: `/.` or a percent-encoded dot. */
const MAYBE_DOT_SEGMENT = /\/\.|%2e/i;

/**
 * Whether `new URL(`${scheme}://${host}${target}`).href` is exactly that text (`target`: the path
 * and an optional query). False also for many that are, only never the other way.
 */
export function isPlainUrl(scheme: string, host: string, target: string): boolean {
  if (!PLAIN_TARGET.test(target)) return false;
  const query = target.indexOf('?');
  if (MAYBE_DOT_SEGMENT.test(query === -1 ? target : target.slice(0, query))) return false;
  return isPlainHost(scheme, host);
}

function isPlainHost(scheme: string, host: string): boolean {
  const colon = host.indexOf(':');
  const name = colon === -1 ? host : host.slice(0, colon);
  // An address ends in a digit, a plain name in a letter, digit or '-' after a letter: one
  // pattern each, chosen by the last character, so neither backtracks through the other.
  const last = name.charCodeAt(name.length - 1);
  const plain = last >= 0x30 && last <= 0x39 ? PLAIN_IPV4.test(name) || PLAIN_NAME.test(name) : PLAIN_NAME.test(name);
  if (!plain || name.includes('xn--')) return false;
  if (colon === -1) return true;
  const port = host.slice(colon + 1);
  return PLAIN_PORT.test(port) && Number(port) <= 65_535 && port !== (scheme === 'http' ? '80' : scheme === 'https' ? '443' : '');
}

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
 * The parts of `request.url`: slices of its text when the URL is plain (isPlainUrl: exactly what
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
 * serialises it, with its parts: built as text when it is plain (isPlainUrl), else parsed;
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
