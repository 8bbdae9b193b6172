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
