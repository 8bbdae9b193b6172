import type { DeprecationPolicy } from '../deprecation.js';
import type { Answer } from '../http/answer.js';
import type { Repositories } from '../storage/repositories.js';

/**
 * Everything a route needs, resolved once by createPetStore and passed as an argument. Routes ask
 * the repositories (`pets`, `orders`, ...); where each call runs (primary or replica, runner or
 * Kysely, batched or single) is the repositories' choice (storage/repositories.ts).
 */
export interface StoreContext extends Repositories {
  now: () => Date;
  basePath: string;
  deprecation: DeprecationPolicy;
  /** How long an `Idempotency-Key` of `POST /pets` is remembered, in milliseconds. */
  idempotencyTtlMs: number;
}

/** One request as a route sees it. `params` are raw (undecoded) path segments. */
export interface RouteRequest {
  request: Request;
  url: URL;
  params: Record<string, string>;
  store: StoreContext;
  /** Who sent it: the hex SHA-256 of the accepted API key (never the key itself). */
  principal: string;
  /** The JSON object body of an operation that declares one, read by the pipeline before admission. */
  rawBody?: Record<string, unknown>;
}

export type RouteHandler = (req: RouteRequest) => Promise<Answer>;
