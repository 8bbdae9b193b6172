// `petstore-router/express`: the store as Express (4 or 5) middleware. Typed structurally with
// node:http types plus the few Express members we read, so our public types need no express types.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type PetStore, checkStore } from 'petstore-router';
import { createNodeHandler } from 'petstore-router/node';
import { bodyAlreadyParsedAnswer } from './parsed-body.js';

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

/** Express-compatible middleware: `app.use(petStoreExpress(store))`. */
export type PetStoreMiddleware = (req: ExpressLikeRequest, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * Express middleware serving `store` at its base path, read on the URL as the client sent it
 * (`req.originalUrl`, mount path included): a store created with `basePath: '/api/v1'` answers
 * `/api/v1/…`, and the URLs it writes (`Location`, `Link`) carry `/api/v1` as they should. Every
 * other request goes on to the next route (`next()`), so the host's routes and its not-found
 * handler keep working. Mounting it on a path (`app.use('/api', …)`) only narrows which requests
 * reach it; that path must be the start of the store's base path.
 *
 * Mount it before any body parser (`express.json()`, `express.text()`, `express.raw()`), or mount
 * those on your own routes only: the store reads the bytes as sent (exact int64 ids, its own
 * 413/415/400 answers). A request whose body a parser already read gets a 500 Error with code
 * `body_already_parsed` that says so (logged once on stderr): the host's setup is at fault.
 *
 * Requests go through the Node bridge of `petstore-router/node` (the store's 64 KiB body cap
 * enforced while streaming, abort on client disconnect, Error bodies for failures).
 *
 * @example
 * ```ts
 * import express from 'express'
 * import { createPetStore } from 'petstore-router'
 * import { createPGliteDatabase } from 'petstore-router/pglite'
 * import { petStoreExpress } from 'petstore-router/express'
 *
 * const store = createPetStore({ db: await createPGliteDatabase(), keys: [process.env.API_KEY!], basePath: '/api/v1' })
 * const app = express()
 * app.use(petStoreExpress(store))  // before express.json()
 * app.use(express.json())
 * app.listen(8080)                  // GET http://localhost:8080/api/v1/pets
 * ```
 */
export function petStoreExpress(store: PetStore): PetStoreMiddleware {
  const { basePath } = checkStore('petStoreExpress', 'store', store, 'app.use(petStoreExpress(createPetStore(...)))');
  const parsedBody = bodyAlreadyParsedAnswer(
    'a body parser mounted before petStoreExpress (express.json(), express.text(), express.raw(), ...)',
    'mount petStoreExpress(store) before body parsers, or mount the parsers on your own routes only',
  );
  const warnMountPath = onceWarning();
  const serveStore = createNodeHandler(store);
  const serveParsedBody = createNodeHandler({ fetch: (request) => parsedBody(request.headers.get('x-request-id')) });
  return (req, res, next) => {
    const url = req.originalUrl ?? req.url ?? '/';
    if (!under(url.split('?', 1)[0]!, basePath)) {
      const mountPath = req.baseUrl ?? '';
      if (mountPath !== '' && !under(basePath, mountPath)) {
        warnMountPath(
          `petstore-router/express: mounted at ${JSON.stringify(mountPath)}, outside the store's basePath ${JSON.stringify(basePath)}: ` +
            `it answers nothing there; create the store with basePath: ${JSON.stringify(mountPath + basePath)}`,
        );
      }
      return next();
    }
    req.url = url; // the Node bridge builds the Request from req.url: the client's own URL
    (bodyConsumed(req) ? serveParsedBody : serveStore)(req, res);
  };
}

/** Whether `path` is `base` or below it (`/api/v10` is not below `/api/v1`). */
function under(path: string, base: string): boolean {
  return base === '' || path === base || path.startsWith(`${base}/`);
}

/** Whether an earlier middleware read the request stream (reading it again would hang). */
function bodyConsumed(req: ExpressLikeRequest): boolean {
  // body-parser 2 (Express 5) checks `complete && !readable`; body-parser 1 sets `_body`.
  return req._body === true || req.readableEnded || (req.complete && !req.readable);
}

function onceWarning(): (message: string) => void {
  let warned = false;
  return (message) => {
    if (warned) return;
    warned = true;
    console.error(message);
  };
}
