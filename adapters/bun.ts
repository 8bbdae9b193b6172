// `petstore-router/bun`: serve a store with `Bun.serve`. Typed with the few members we use, so our
// public types need no @types/bun and this file typechecks under Node too.
import { DEFAULT_HOST } from './listen-host.js';

/** Options of {@link serve}: the subset of Bun's serve options this helper passes on. */
export interface BunServeOptions {
  /** `0` picks a free port. @default process.env.PORT, else 3000 (Bun's default) */
  port?: number;
  /** Address to listen on (`'0.0.0.0'` for every interface). @default '127.0.0.1' (unlike Bun's own default) */
  hostname?: string;
  /** Seconds a connection may stay idle before Bun closes it. @default 10 (Bun's default) */
  idleTimeout?: number;
}

/** The members of Bun's `Server` this helper promises. */
export interface BunServer {
  readonly port: number;
  readonly hostname: string;
  /** Where the server listens, e.g. `http://localhost:3000/`. */
  readonly url: URL;
  /** Stops accepting connections; `true` also closes the active ones. */
  stop(closeActiveConnections?: boolean): Promise<void> | void;
}

interface BunGlobal {
  serve(options: BunServeOptions & { fetch: (request: Request) => Response | Promise<Response> }): BunServer;
}

/**
 * Serves `store` with `Bun.serve`. Throws a clear error when not running on Bun.
 *
 * @example
 * ```ts
 * import { createPetStore } from 'petstore-router'
 * import { createPGliteDatabase } from 'petstore-router/pglite'
 * import { serve } from 'petstore-router/bun'
 *
 * const store = createPetStore({ db: await createPGliteDatabase(), keys: [process.env.API_KEY!] })
 * const server = serve(store, { port: 8080 })
 * console.log(`listening on ${server.url}`)
 * ```
 */
export function serve(store: { readonly fetch: (request: Request) => Promise<Response> }, options: BunServeOptions = {}): BunServer {
  const bun = (globalThis as { Bun?: Partial<BunGlobal> }).Bun;
  if (typeof bun?.serve !== 'function') {
    throw new Error('petstore-router/bun: Bun.serve is not available; this helper runs on Bun (on Node.js use petstore-router/node)');
  }
  // Bun calls fetch(request, server): the store takes the request alone.
  return bun.serve({ ...options, hostname: options.hostname ?? DEFAULT_HOST, fetch: (request) => store.fetch(request) });
}
