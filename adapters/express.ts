// `petstore-router/express`: the store as Express (4 or 5) middleware. Typed structurally with
// node:http types plus the few Express members we read, so our public types need no express types.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PetStore } from 'petstore-router';
import { createNodeHandler } from 'petstore-router/node';

/** The members of Express's `req` this middleware reads (Express's own `Request` fits). */
export interface ExpressLikeRequest extends IncomingMessage {
  /** The URL as received, mount path included. */
  originalUrl?: string;
  /** The path this middleware is mounted at (`'/api'` for `app.use('/api', …)`). */
  baseUrl?: string;
  /** Set by a body parser that ran earlier: a Buffer, a string or a parsed value. */
  body?: unknown;
  /** Set by body-parser 1.x (Express 4) once it has read the stream. */
  _body?: boolean;
}

/** Express-compatible middleware: `app.use('/api', petStoreExpress(store))`. */
export type PetStoreMiddleware = (req: ExpressLikeRequest, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * Express middleware serving `store` under the mount path: with `app.use('/api', …)` the store
 * answers `/api/v1/…`; requests outside its base path go on to the next route (`next()`).
 *
 * Mount it before any body parser (`express.json()`, `express.text()`, `express.raw()`) or on a
 * path they do not cover: the store then reads the bytes as sent. If a parser did run first, the
 * body is rebuilt from `req.body` (a Buffer or string as is, a parsed value with `JSON.stringify`),
 * so requests never hang; but a parsed body has lost its original bytes, and integers beyond
 * 2^53 (int64 ids) were already rounded by `JSON.parse`.
 *
 * Absolute URLs the store writes (`Location`, `Link`) get the mount path added back. Requests go
 * through the Node bridge of `petstore-router/node` (the store's 64 KiB body cap enforced while
 * streaming, abort on client disconnect, Error bodies for failures).
 *
 * @example
 * ```ts
 * import express from 'express'
 * import { createPetStore } from 'petstore-router'
 * import { createPGliteDatabase } from 'petstore-router/pglite'
 * import { petStoreExpress } from 'petstore-router/express'
 *
 * const store = createPetStore({ db: await createPGliteDatabase(), keys: [process.env.API_KEY!] })
 * const app = express()
 * app.use('/api', petStoreExpress(store)) // before express.json()
 * app.use(express.json())
 * app.listen(8080)                         // GET http://localhost:8080/api/v1/pets
 * ```
 */
export function petStoreExpress(store: PetStore): PetStoreMiddleware {
  const { basePath } = store;
  return (req, res, next) => {
    // The path under the mount point: what the store routes on. Read now, before Express restores
    // req.url; originalUrl always starts with baseUrl, the part of it the mount path matched.
    const baseUrl = req.baseUrl ?? '';
    const original = req.originalUrl ?? req.url ?? '/';
    let path = original.startsWith(baseUrl) ? original.slice(baseUrl.length) : (req.url ?? '/');
    if (!path.startsWith('/')) path = `/${path}`;
    const pathname = path.split('?', 1)[0]!;
    if (basePath !== '' && pathname !== basePath && !pathname.startsWith(`${basePath}/`)) return next();

    req.url = path; // what the Node bridge builds the Request URL from
    const consumed = bodyConsumed(req);
    const handler = {
      fetch: async (request: Request): Promise<Response> => {
        const response = await store.fetch(consumed ? withBody(request, rebuiltBody(req.body)) : request);
        return baseUrl === '' ? response : withMountPath(response, new URL(request.url).origin, basePath, baseUrl);
      },
    };
    createNodeHandler(handler)(req, res);
  };
}

/** Whether an earlier middleware read the request stream (reading it again would hang). */
function bodyConsumed(req: ExpressLikeRequest): boolean {
  // body-parser 2 (Express 5) checks `complete && !readable`; body-parser 1 sets `_body`.
  return req._body === true || req.readableEnded || (req.complete && !req.readable);
}

function rebuiltBody(body: unknown): BodyInit | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body;
  // A Buffer from express.raw(): its bytes as is (a Buffer's memory is an ArrayBuffer).
  if (body instanceof Uint8Array) return body as Uint8Array<ArrayBuffer>;
  return JSON.stringify(body);
}

/** `request` with `body` instead of the stream a parser already read. */
function withBody(request: Request, body: BodyInit | null): Request {
  // The lengths and the encoding no longer describe the bytes (parsers also inflate gzip).
  const headers = new Headers(request.headers);
  for (const name of ['content-length', 'content-encoding', 'transfer-encoding']) headers.delete(name);
  const bodiless = request.method === 'GET' || request.method === 'HEAD';
  return new Request(request.url, { method: request.method, headers, signal: request.signal, body: bodiless ? null : body });
}

/** Adds the mount path to the absolute URLs the store wrote for its own origin. */
function withMountPath(response: Response, origin: string, basePath: string, baseUrl: string): Response {
  const location = response.headers.get('location');
  const link = response.headers.get('link');
  if (location === null && link === null) return response;
  const headers = new Headers(response.headers);
  const from = origin + basePath;
  const to = origin + baseUrl + basePath;
  if (location !== null) headers.set('location', location.split(from).join(to));
  if (link !== null) headers.set('link', link.split(from).join(to));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
