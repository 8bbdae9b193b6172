/**
 * The store-side types: what the library's own functions take and return (`addOrder`, `seed`),
 * with int64 fields as `bigint` so every value of the range is exact. Named `Stored*` in the
 * package. What a client receives over HTTP (`await res.json()`: numbers) are the wire types of
 * wire.ts (`Pet`, `Order`, `NewPet`); README's "Types" section says which is which.
 */

/** The availability values of a pet (the database's check constraint lists the same, migrations/0001). */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];
/** The status of a pet added without one. */
export const DEFAULT_PET_STATUS: PetStatus = 'available';

/** A pet as the library returns it (`seed`): int64 fields exact as `bigint`. Over HTTP: `Pet` (wire.ts). */
export interface StoredPet {
  id: bigint;
  name: string;
  categoryId: bigint;
  status: PetStatus;
}

/**
 * A pet as the repository returns it (internal, not exported from the package): the API's shape
 * with the int64 fields as PostgreSQL's own decimal text (`::text` in storage/pets.ts). They are
 * only written back to JSON, where that text already is the exact integer: no driver parser is
 * involved (a caller's Pool or PGlite may have any), and no bigint is parsed and printed again per
 * row (a visible share of a 100-pet page's server CPU, docs/performance.md).
 */
export interface PetRecord {
  /** Canonical decimal int64 (PostgreSQL's int8 output: no sign for positives, no leading zeros). */
  id: string;
  name: string;
  /** Canonical decimal int64. */
  categoryId: string;
  status: PetStatus;
}

/** The body of `POST /pets`, after validation (int64 as `bigint`). */
export interface NewStoredPet {
  name: string;
  categoryId: bigint;
  status?: PetStatus;
}

/** The states of an order. */
export const ORDER_STATUSES = ['placed', 'approved', 'delivered'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** The status of an order added without one. */
export const DEFAULT_ORDER_STATUS: OrderStatus = 'placed';

/** An order as the library returns it (`addOrder`, `seed`): int64 exact as `bigint`. Over HTTP: `Order` (wire.ts). */
export interface StoredOrder {
  id: bigint;
  petId: bigint;
  quantity: number;
  shipDate?: Date;
  status: OrderStatus;
  complete: boolean;
}

/** Input of `addOrder`: int64 as `bigint`. */
export interface NewStoredOrder {
  petId: bigint;
  quantity: number;
  shipDate?: Date;
  status?: OrderStatus;
  complete?: boolean;
}

/** One page of a keyset-paginated list: `hasMore` says whether another page follows. */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
}
