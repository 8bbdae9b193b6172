// `store.fetch` is called the way the global `fetch` is (issue 38): a Request, or a URL (string or
// URL object) with `init`. Runtimes call it with a Request and a second argument of their own (Deno's
// handler info, a Worker's env): after a Request, anything is ignored, so it is never taken for `init`.

/** `store.fetch`: a Request, or an absolute URL with the global fetch's `init`. */
export interface StoreFetch {
  (request: Request): Promise<Response>;
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
}

/** `serve`, also taking what the global fetch takes, and refusing anything else with a TypeError that says what to pass. */
export function acceptingUrls(serve: (request: Request) => Promise<Response>): StoreFetch {
  return (input: unknown, init?: RequestInit): Promise<Response> => {
    // A Request first: the one shape servers pass, checked without reading any of its members, and
    // without `instanceof`, which would make a bridge's lazy Request resolve its chain. A URL has no headers.
    if (typeof input === 'object' && input !== null && 'headers' in input) return serve(input as Request);
    if (typeof input === 'string' && !URL.canParse(input))
      return Promise.reject(
        new TypeError(
          `${WHAT} got ${JSON.stringify(input)}, not an absolute URL: pass e.g. 'http://localhost${input.startsWith('/') ? input : `/${input}`}' (any origin). createTestStore()'s fetch takes a path alone.`,
        ),
      );
    if (typeof input === 'string' || input instanceof URL) {
      let request: Request;
      try {
        request = new Request(input, init);
      } catch (error) {
        return Promise.reject(error); // as the global fetch: a bad method, a body on GET...
      }
      return serve(request);
    }
    return Promise.reject(new TypeError(`${WHAT} got ${input === null ? 'null' : typeof input}`));
  };
}

const WHAT = 'petstore-router: store.fetch takes a Request, or a URL (string or URL object) and init like the global fetch;';
