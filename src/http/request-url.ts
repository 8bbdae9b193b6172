/** What the routes read of a request's URL. A `URL` has all of it. */
export interface RequestUrl {
  readonly origin: string;
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/**
 * A serialised http(s) URL whose parts can be cut out of its text: a lowercase host name or IPv4
 * address, an optional port, a path, an optional query; no user info, no fragment.
 */
const PLAIN_HREF = /^(https?:\/\/[a-z0-9.-]+(?::[0-9]+)?)(\/[^?#]*)(\?[^#]*)?$/;

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
 * The parts of `request.url`. Every Request (undici's, Deno's, Bun's, the Node adapter's) exposes
 * its URL serialised, so for the usual shape the parts are slices of the text, and `new URL()`
 * (~2 us per request on Node 20, the largest single item of ours in a create profile,
 * docs/performance.md item 24) is left to the rest: user info, a fragment, an uppercase or
 * non-ASCII host, another scheme.
 */
export function requestUrl(href: string): RequestUrl {
  const plain = PLAIN_HREF.exec(href);
  if (plain === null) return new URL(href);
  return new PlainUrl(plain[1]!, plain[2]!, plain[3] ?? '');
}
