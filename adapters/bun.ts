// `petstore-router/bun`: serve a store with `Bun.serve`. Typed with the few members we use, so our
// public types need no @types/bun and this file typechecks under Node too.
import { type BUN_SERVE_OPTION_NAMES, type StoreLike, checkRuntimeServeArguments } from 'petstore-router';
import { DEFAULT_HOST } from './listen-host.js';

/** Options of {@link serve}: the subset of Bun's serve options this helper passes on. */
export interface BunServeOptions {
  /** `0` picks a free port. @default process.env.PORT, else 3000 (Bun's default) */
  port?: number;
  /** Address to listen on (`'0.0.0.0'` for every interface). @default '127.0.0.1' (unlike Bun's own default) */
  hostname?: string;
  /** Seconds a connection may stay idle before Bun closes it (0 to 255). @default 10 (Bun's default) */
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

// BUN_SERVE_OPTION_NAMES names exactly the options above (a name missing on either side fails to compile).
type Named = (typeof BUN_SERVE_OPTION_NAMES)[number];
const optionNamesMatch: [Named, keyof BunServeOptions] extends [keyof BunServeOptions, Named] ? true : never = true;
void optionNamesMatch;

interface BunGlobal {
  serve(options: BunServeOptions & { fetch: (request: Request) => Response | Promise<Response> }): BunServer;
}

/**
 * Serves `store` with `Bun.serve`. Throws a clear error when not running on Bun, and a TypeError
 * naming the option for a wrong or misspelled one.
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
export function serve(store: StoreLike, options: BunServeOptions = {}): BunServer {
  checkRuntimeServeArguments('bun', store, options);
  const bun = (globalThis as { Bun?: Partial<BunGlobal> }).Bun;
  if (typeof bun?.serve !== 'function') {
    throw new Error('petstore-router/bun: Bun.serve is not available; this helper runs on Bun (on Node.js use petstore-router/node)');
  }
  // Bun calls fetch(request, server): the store takes the request alone.
  return bun.serve({ ...options, hostname: options.hostname ?? DEFAULT_HOST, fetch: (request) => store.fetch(request) });
}
