// `petstore-router/msw`: Mock Service Worker (2.x) request handlers that answer through a store, so
// an app's own fetch calls to a base URL reach a real, stateful pet store (in the browser with
// `setupWorker`, in Node with `setupServer`). msw is an optional peer dependency.
import { type HttpHandler, http } from 'msw';
import { type StoreLike, checkMswHandlersArguments } from 'petstore-router';

/** Options of {@link createHandlers}. */
export interface MswHandlersOptions {
  /**
   * Where the app believes the API lives: an origin, optionally with a path prefix
   * (`'https://api.example.com'`, `'https://example.com/api/'`). Requests to `{baseUrl}{basePath}`
   * and below reach the store, the prefix taken off; every other request is left to MSW (by
   * default it passes through to the network).
   */
  baseUrl: string;
}

/**
 * MSW request handlers that answer requests under `{baseUrl}{store.basePath}` with `store.fetch`.
 *
 * @example
 * ```ts
 * // In the browser (after `npx msw init public/`):
 * import { setupWorker } from 'msw/browser'
 * import { createBrowserStore } from 'petstore-router/browser'
 * import { createHandlers } from 'petstore-router/msw'
 *
 * const store = await createBrowserStore({ dataDir: 'idb://petstore-demo', keys: ['demo-key'] })
 * await setupWorker(...createHandlers(store, { baseUrl: 'https://api.example.com' })).start()
 * // The app's own calls now reach the store:
 * await fetch('https://api.example.com/v1/pets', { headers: { authorization: 'Bearer demo-key' } })
 *
 * // In Node tests:
 * import { setupServer } from 'msw/node'
 * const server = setupServer(...createHandlers(store, { baseUrl: 'https://api.example.com' }))
 * server.listen()
 * ```
 */
export function createHandlers(given: StoreLike | { readonly store: StoreLike }, options: MswHandlersOptions): HttpHandler[] {
  const { store, base } = checkMswHandlersArguments(given, options);
  const prefix = base.pathname.replace(/\/+$/, '');
  const root = `${base.origin}${prefix}${store.basePath}`;
  const answer = async ({ request }: { request: Request }) =>
    prefix === '' ? store.fetch(request) : prefixed(await store.fetch(unprefixed(request, prefix)), base.origin, prefix);
  // The base path itself, with and without its trailing slash, and everything below it.
  const paths = store.basePath === '' ? [`${root}/`, `${root}/*`] : [root, `${root}/`, `${root}/*`];
  return paths.map((path) => http.all(path, answer));
}

/** The same request with the base URL's path prefix taken off, as the store expects its paths. */
function unprefixed(request: Request, prefix: string): Request {
  const url = new URL(request.url);
  url.pathname = url.pathname.slice(prefix.length);
  // `duplex` is required for a streamed body (Node's fetch) and ignored otherwise.
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    duplex: 'half',
  } as RequestInit);
}

/**
 * The store's answer with the base URL's path prefix put back into the absolute URLs it wrote
 * (`Location`, `Link`), which name the path the store saw: following them must reach the handlers.
 */
function prefixed(response: Response, origin: string, prefix: string): Response {
  const location = response.headers.get('location');
  const link = response.headers.get('link');
  const fixedLocation = location?.startsWith(`${origin}/`) ? `${origin}${prefix}${location.slice(origin.length)}` : location;
  const fixedLink = link?.replaceAll(`<${origin}/`, `<${origin}${prefix}/`) ?? null;
  if (fixedLocation === location && fixedLink === link) return response;
  const headers = new Headers(response.headers);
  if (fixedLocation !== null) headers.set('location', fixedLocation);
  if (fixedLink !== null) headers.set('link', fixedLink);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
