/**
 * The wire types: the JSON bodies of the API as a client receives and sends them. `await
 * res.json()` gives numbers, so int64 fields are `number` here. The store keeps every int64 exact
 * (past 2^53 too) and writes it exactly; `JSON.parse` rounds an integer above
 * `Number.MAX_SAFE_INTEGER` (2^53 - 1) to the nearest double. A client that may meet such ids
 * reads the body with a parser that keeps big integers (`JSON.parse` with a reviver's `source`
 * where the runtime has it, or a library such as `lossless-json`), or works with the
 * store-side types (`StoredPet`, `StoredOrder`: `bigint`) through the library.
 *
 * @example
 * ```ts
 * import type { Pet } from 'petstore-router'
 * const pets: Pet[] = await (await fetch(`${base}/pets`, { headers })).json()
 * ```
 */
import type { OrderStatus, PetStatus } from './model.js';

/** A pet as `GET /pets`, `GET /pets/{petId}` and `POST /pets` answer it, after `JSON.parse`. */
export interface Pet {
  /** int64; exact in the JSON text, exact as a number up to 2^53 - 1. */
  id: number;
  name: string;
  /** int64; exact in the JSON text, exact as a number up to 2^53 - 1. */
  categoryId: number;
  status: PetStatus;
}

/** The body of `POST /pets` as a client sends it; `status` defaults to `available`. */
export interface NewPet {
  name: string;
  /** int64: an integer (no fraction, exponent or quotes); past 2^53, write the JSON text yourself. */
  categoryId: number;
  status?: PetStatus;
}

/** An order as `GET /store/orders` answers it, after `JSON.parse`. */
export interface Order {
  /** int64; exact as a number up to 2^53 - 1. */
  id: number;
  /** int64; exact as a number up to 2^53 - 1. */
  petId: number;
  quantity: number;
  /** RFC 3339 date-time (`2026-01-02T00:00:00.000Z`), absent when unset. */
  shipDate?: string;
  status: OrderStatus;
  complete: boolean;
}
