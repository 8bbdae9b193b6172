// The options of petstore-router/deno's and /bun's serve(store, options), checked before the
// runtime's own serve sees them: Deno and Bun ignore a misspelled name and listen anyway.
import { LISTEN, checkOptionNames, checkerOf, isObject, optionError } from './check.js';
import { checkStore } from './store-like.js';

/** Every option of petstore-router/deno's serve; adapters/deno.ts keeps it equal to DenoServeOptions. */
export const DENO_SERVE_OPTION_NAMES = ['port', 'hostname', 'signal', 'onListen'] as const;
/** Every option of petstore-router/bun's serve; adapters/bun.ts keeps it equal to BunServeOptions. */
export const BUN_SERVE_OPTION_NAMES = ['port', 'hostname', 'idleTimeout'] as const;

const HINT = 'serve(createPetStore(...), { port: 8080 })';

/** Throws a TypeError unless `store` is a store and `options` are serve's of `runtime` ('deno' or 'bun'). */
export function checkRuntimeServeArguments(runtime: 'deno' | 'bun', store: unknown, options: unknown): void {
  const where = `${runtime} serve`;
  checkStore(where, 'store', store, HINT);
  if (options === undefined) return;
  if (!isObject(options)) throw optionError(where, 'options', 'an object', options, HINT);
  checkOptionNames(where, options, runtime === 'deno' ? DENO_SERVE_OPTION_NAMES : BUN_SERVE_OPTION_NAMES);
  const check = checkerOf(where);
  check('port', options.port, LISTEN.port, LISTEN.portExpected);
  check('hostname', options.hostname, LISTEN.host, LISTEN.hostExpected);
  if (runtime === 'deno') {
    check('signal', options.signal, (v) => v instanceof AbortSignal, 'an AbortSignal (from new AbortController())');
    check('onListen', options.onListen, (v) => typeof v === 'function', 'a function ({ hostname, port }) => void');
  } else {
    // Bun refuses an idle timeout above 255 s (its own bound).
    check(
      'idleTimeout',
      options.idleTimeout,
      (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 255,
      'a whole number of seconds (0 to 255)',
    );
  }
}
