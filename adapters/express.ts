// `petstore-router/express`: the store as Express (4 or 5) middleware. Typed structurally with
// node:http types plus the few Express members we read, so our public types need no express types.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { PetStore } from 'petstore-router';

/** The members of Express's `req` this middleware reads (Express's own `Request` fits). */
export interface ExpressLikeRequest extends IncomingMessage {
  /** The URL as received, mount path included. */
  originalUrl?: string;
  /** The path this middleware is mounted at (`'/api'` for `app.use('/api', …)`). */
  baseUrl?: string;
  /** `'https'` behind a trusted proxy (Express's `trust proxy`). */
  protocol?: string;
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
 * Absolute URLs the store writes (`Location`, `Link`) get the mount path added back.
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
    // Read now: Express restores req.url / req.baseUrl once this middleware returns.
    const baseUrl = req.baseUrl ?? '';
    const original = req.originalUrl ?? req.url ?? '/';
    let path = original.startsWith(baseUrl) ? original.slice(baseUrl.length) : (req.url ?? '/');
    if (!path.startsWith('/')) path = `/${path}`;
    const pathname = path.split('?', 1)[0]!;
    if (basePath !== '' && pathname !== basePath && !pathname.startsWith(`${basePath}/`)) return next();

    const origin = `${req.protocol ?? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http')}://${req.headers.host ?? 'localhost'}`;
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    store
      .fetch(toRequest(req, origin + path, controller.signal))
      .then((response) => send(res, response, req.method === 'HEAD', baseUrl === '' ? undefined : [origin + basePath, origin + baseUrl + basePath]))
      .catch((error: unknown) => (res.headersSent ? res.destroy(error as Error) : next(error)));
  };
}

function toRequest(req: ExpressLikeRequest, url: string, signal: AbortSignal): Request {
  // From rawHeaders: `req.headers` keeps only the first of several Authorization headers, and
  // the store must see them all to answer 401.
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (method !== 'GET' && method !== 'HEAD') {
    if (bodyConsumed(req)) {
      // A body parser read the stream: rebuild the bytes from what it left. The lengths and the
      // encoding no longer describe them (parsers also inflate gzip), so drop those headers.
      init.body = rebuiltBody(req.body);
      headers.delete('content-length');
      headers.delete('content-encoding');
      headers.delete('transfer-encoding');
    } else {
      init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
      init.duplex = 'half';
    }
  }
  return new Request(url, init);
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

/** Writes `response` in one call with its length; `rewrite` adds the mount path to our URLs. */
async function send(res: ServerResponse, response: Response, head: boolean, rewrite: [string, string] | undefined): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue;
    res.setHeader(name, rewrite && (name === 'location' || name === 'link') ? value.split(rewrite[0]).join(rewrite[1]) : value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  const bodiless = head || response.status === 204 || response.status === 304;
  if (!bodiless) res.setHeader('content-length', body.byteLength);
  res.end(body);
}
