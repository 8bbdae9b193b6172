import type { Kysely } from 'kysely';
import type { StatementRunner } from '../drivers/statements.js';
import type { DeprecationPolicy } from '../deprecation.js';
import type { RequestUrl } from '../http/request-url.js';
import type { Answer } from '../http/answer.js';
import type { Database } from '../storage/database.js';

/** Everything a route needs, resolved once by createPetStore and passed as an argument. */
export interface StoreContext {
  db: Kysely<Database>;
  /** The runner of prepared statements the database object carries (drivers/statements.ts), if any. */
  statements: StatementRunner | undefined;
  now: () => Date;
  basePath: string;
  deprecation: DeprecationPolicy;
  /** How long an `Idempotency-Key` of `POST /pets` is remembered, in milliseconds. */
  idempotencyTtlMs: number;
}

/** One request as a route sees it. `params` are raw (undecoded) path segments. */
export interface RouteRequest {
  request: Request;
  url: RequestUrl;
  params: Record<string, string>;
  store: StoreContext;
  /** Who sent it: the hex SHA-256 of the accepted API key (never the key itself). */
  principal: string;
}

export type RouteHandler = (req: RouteRequest) => Promise<Answer>;
