import type { ColumnType, Generated, Kysely, Selectable } from 'kysely';
import type { PetStoreDatabase } from '../drivers/contract.js';
import type { OrderStatus, PetStatus } from '../model.js';

/**
 * Table types, kept apart from the API types. int8 columns are `bigint | number | string` on
 * the way out because each driver returns them differently (pg: string; PGlite: number up to
 * 2^53, bigint above); the repositories never read them so: they select int8 as text (the int64
 * rule of model.ts), and seed converts its rows with int8.ts.
 */
type Int8 = ColumnType<bigint | number | string, bigint | string, bigint | string>;
type Int8Generated = ColumnType<bigint | number | string, bigint | string | undefined, never>;

export interface PetTable {
  id: Int8Generated;
  name: string;
  category_id: Int8;
  status: PetStatus;
}

export interface OrderTable {
  id: Int8Generated;
  pet_id: Int8;
  quantity: number;
  ship_date: ColumnType<Date | null, Date | null | undefined, Date | null>;
  status: OrderStatus;
  complete: Generated<boolean>;
}

/** One `Idempotency-Key` of `POST /pets`, scoped to the SHA-256 of the API key that sent it. */
export interface IdempotencyKeyTable {
  /** Hex SHA-256 of the presented API key (never the key itself). */
  principal: string;
  idempotency_key: string;
  /** Hex SHA-256 of the canonical request (see storage/idempotency.ts). */
  fingerprint: string;
  state: 'in_flight' | 'completed';
  /** Random id of the current claim; fences the completion against a takeover. */
  claim_id: string;
  claimed_at: Date;
  expires_at: Date;
  response_status: number | null;
  response_body: string | null;
  response_location: string | null;
}

/**
 * The request count of one API key in its current fixed rate-limit window (storage/rate-limits.ts).
 * One row per key: a new window resets the count in place.
 */
export interface RateLimitTable {
  /** The key id: first 12 hex characters of the SHA-256 of the API key (never the key itself). */
  key_id: string;
  /** Start of the window, in seconds since the epoch (a multiple of the window length). */
  window_start: Int8;
  hits: number;
}

/** The tables petstore-router creates (names prefixed so they never collide with a host app's). */
export interface Database {
  petstore_pets: PetTable;
  petstore_orders: OrderTable;
  petstore_idempotency_keys: IdempotencyKeyTable;
  petstore_rate_limits: RateLimitTable;
}

export type PetRow = Selectable<PetTable>;
export type OrderRow = Selectable<OrderTable>;

/**
 * The database a caller hands us: a Kysely of our schema or of the caller's own (their tables
 * and ours in one database). Kysely's type is invariant in its schema, so only `any` admits every
 * caller's Kysely; our code reads it through {@link Database}.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: any caller's schema type
export type AnyKysely = Kysely<Database> | Kysely<any>;

/**
 * What `createPetStore({ db })` takes: a Kysely (one of the drivers', which is also a
 * {@link PetStoreDatabase}, or your own: the contract's minimal form), or another driver's contract.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as AnyKysely
export type AnyDatabase = AnyKysely | PetStoreDatabase<any>;
