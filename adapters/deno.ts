// `petstore-router/deno`: serve a store with `Deno.serve`. Typed with the few members we use, so
// our public types need no Deno type package and this file typechecks under Node too.
import { type DENO_SERVE_OPTION_NAMES, type StoreLike, checkRuntimeServeArguments } from 'petstore-router';
import { DEFAULT_HOST } from './listen-host.js';

/** Options of {@link serve}: the subset of `Deno.ServeOptions` this helper passes on. */
export interface DenoServeOptions {
  /** @default 8000 (Deno's default) */
  port?: number;
  /** Address to listen on (`'0.0.0.0'` for every interface). @default '127.0.0.1' (unlike Deno's own default) */
  hostname?: string;
  /** Aborting it shuts the server down gracefully. */
  signal?: AbortSignal;
  /** Called once the server listens. @default Deno logs `Listening on …` */
  onListen?: (addr: { hostname: string; port: number }) => void;
}

/** The members of `Deno.HttpServer` this helper promises. */
export interface DenoServer {
  readonly addr: { hostname: string; port: number };
  /** Settles when the server has stopped. */
  readonly finished: Promise<void>;
  /** Stops accepting connections and waits for in-flight requests. */
  shutdown(): Promise<void>;
}

// DENO_SERVE_OPTION_NAMES names exactly the options above (a name missing on either side fails to compile).
type Named = (typeof DENO_SERVE_OPTION_NAMES)[number];
const optionNamesMatch: [Named, keyof DenoServeOptions] extends [keyof DenoServeOptions, Named] ? true : never = true;
void optionNamesMatch;

interface DenoGlobal {
  serve(options: DenoServeOptions, handler: (request: Request) => Response | Promise<Response>): DenoServer;
}

/**
 * Serves `store` with `Deno.serve`. Throws a clear error when not running on Deno, and a TypeError
 * naming the option for a wrong or misspelled one.
 *
 * @example
 * ```ts
 * import { createPetStore } from 'petstore-router'
 * import { createPGliteDatabase } from 'petstore-router/pglite'
 * import { serve } from 'petstore-router/deno'
 *
 * const store = createPetStore({ db: await createPGliteDatabase(), keys: [Deno.env.get('API_KEY')!] })
 * const server = serve(store, { port: 8080 })
 * // later: await server.shutdown()
 * ```
 */
export function serve(store: StoreLike, options: DenoServeOptions = {}): DenoServer {
  checkRuntimeServeArguments('deno', store, options);
  const deno = (globalThis as { Deno?: Partial<DenoGlobal> }).Deno;
  if (typeof deno?.serve !== 'function') {
    throw new Error(
      'petstore-router/deno: Deno.serve is not available; this helper runs on Deno 1.35+ (on Node.js use petstore-router/node)',
    );
  }
  return deno.serve({ ...options, hostname: options.hostname ?? DEFAULT_HOST }, store.fetch);
}
