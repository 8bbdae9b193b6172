// "Is this a store?", asked once for the adapters that take one (petstore-router/fastify, /msw):
// anything with a `fetch` and a `basePath`, so another copy of the package's store passes too.
import { optionError } from './check.js';

/** What an adapter uses of a store: its fetch and where it answers. */
export interface StoreLike {
  readonly fetch: (request: Request) => Promise<Response>;
  readonly basePath: string;
}

const EXPECTED = 'a store (createPetStore(...), createBrowserStore(...) or the .store of createTestStore())';

/** True for an object with a `fetch` function and a string `basePath`. */
export function isStoreLike(value: unknown): value is StoreLike {
  if (typeof value !== 'object' || value === null) return false;
  const { fetch, basePath } = value as Record<string, unknown>;
  return typeof fetch === 'function' && typeof basePath === 'string';
}

/** `value` if it is a store, else the TypeError of `option` of `where`, with `hint` as what to pass. */
export function checkStore(where: string, option: string, value: unknown, hint?: string): StoreLike {
  if (isStoreLike(value)) return value;
  throw optionError(where, option, EXPECTED, value, hint);
}
