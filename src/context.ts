import type { Kysely } from 'kysely';
import type { DeprecationPolicy } from './deprecation.js';
import type { Database } from './storage/database.js';

/** Everything a route needs, resolved once by createPetStore and passed as an argument. */
export interface StoreContext {
  db: Kysely<Database>;
  now: () => Date;
  basePath: string;
  deprecation: DeprecationPolicy;
}

/** One request as a route sees it. `params` are raw (undecoded) path segments. */
export interface RouteRequest {
  request: Request;
  url: URL;
  params: Record<string, string>;
  store: StoreContext;
}

export type RouteHandler = (req: RouteRequest) => Promise<Response>;
