import type { Kysely } from 'kysely';
import type { DatabaseFailure, ReadRouting, StatementRunner } from '../drivers/contract.js';
import type { DeprecationPolicy } from '../deprecation.js';
import type { Answer } from '../http/answer.js';
import type { NewStoredPet, PetRecord } from '../model.js';
import type { Database } from '../storage/database.js';

/** Everything a route needs, resolved once by createPetStore and passed as an argument. */
export interface StoreContext {
  db: Kysely<Database>;
  /** The runner of prepared statements the database object carries (drivers/contract.ts), if any. */
  statements: StatementRunner | undefined;
  /**
   * Where reads run (list and get pets, list orders, health's query): `db` and `statements`, or
   * the database's read side when its driver has read replicas (drivers/contract.ts).
   */
  reads: { readonly db: Kysely<Database>; readonly statements: StatementRunner | undefined };
  /**
   * Stores a pet outside any transaction (`POST /pets` without an `Idempotency-Key`): the
   * batching inserter (storage/pet-inserts.ts) when the database has a runner, `batchCreates`
   * is not false and no statement is observed (Server-Timing, OpenTelemetry), else one plain
   * statement per pet.
   */
  insertPet: (pet: NewStoredPet) => Promise<PetRecord>;
  /** The read replicas' state, when there are any (health checks). */
  readRouting: (() => ReadRouting) | undefined;
  /** What an error of the database means (the database contract's classifier). */
  classify: (error: unknown) => DatabaseFailure | undefined;
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
}

export type RouteHandler = (req: RouteRequest) => Promise<Answer>;
