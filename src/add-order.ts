import type { Kysely } from 'kysely';
import { ApiError, ErrorCode } from './errors.js';
import type { NewStoredOrder, StoredOrder } from './model.js';
import { validate } from './schemas/issues.js';
import { NewOrderSchema } from './schemas/order.js';
import type { Database } from './storage/database.js';
import { insertOrder } from './storage/orders.js';

/**
 * Adds an order to the store (orders are written through the library, not over HTTP). The input
 * is validated like a request body; an unknown `petId` is an `ApiError` 404.
 *
 * @example
 * ```ts
 * import { addOrder } from 'petstore-router'
 * const order = await addOrder(db, { petId: 1n, quantity: 2, status: 'approved' })
 * ```
 */
export async function addOrder(db: Kysely<Database>, input: NewStoredOrder): Promise<StoredOrder> {
  const order = validate(NewOrderSchema, input);
  const added = await insertOrder(db, order);
  if (added === undefined) throw new ApiError({ status: 404, code: ErrorCode.notFound, message: `pet ${order.petId} does not exist` });
  // The library's own answer: the store-side type, int64 as bigint (model.ts).
  return { ...added, id: BigInt(added.id), petId: BigInt(added.petId) };
}
