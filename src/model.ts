/**
 * The store-side types: what the library's own functions take and return (`addOrder`, `seed`),
 * with int64 fields as `bigint` so every value of the range is exact. Named `Stored*` in the
 * package. What a client receives over HTTP (`await res.json()`: numbers) are the wire types of
 * wire.ts (`Pet`, `Order`, `NewPet`); README's "Types" section says which is which.
 */

export type PetStatus = 'available' | 'pending' | 'sold';

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

export type OrderStatus = 'placed' | 'approved' | 'delivered';

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
