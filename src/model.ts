/**
 * The API's resource types, as users of the library see them. int64 fields are `bigint` so
 * every value of the range is exact.
 */

export type PetStatus = 'available' | 'pending' | 'sold';

/** A pet as returned by the API. */
export interface Pet {
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

/** The body of `POST /pets`, after validation. */
export interface NewPet {
  name: string;
  categoryId: bigint;
  status?: PetStatus;
}

export type OrderStatus = 'placed' | 'approved' | 'delivered';

/** An order of the store area. */
export interface Order {
  id: bigint;
  petId: bigint;
  quantity: number;
  shipDate?: Date;
  status: OrderStatus;
  complete: boolean;
}

/** Input of `addOrder`. */
export interface NewOrder {
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
