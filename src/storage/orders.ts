import type { Kysely } from 'kysely';
import * as v from 'valibot';
import { ApiError, ErrorCode } from '../http/errors.js';
import type { NewStoredOrder, Page, StoredOrder } from '../model.js';
import { NewOrderSchema } from '../schemas/order.js';
import { validate } from '../schemas/issues.js';
import type { Database, OrderRow } from './database.js';
import { toBigInt } from './int8.js';

function toOrder(row: OrderRow): StoredOrder {
  const order: StoredOrder = {
    id: toBigInt(row.id),
    petId: toBigInt(row.pet_id),
    quantity: row.quantity,
    status: row.status,
    complete: row.complete,
  };
  if (row.ship_date !== null) order.shipDate = new Date(row.ship_date);
  return order;
}

const FOREIGN_KEY_VIOLATION = '23503';

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
  const order: v.InferOutput<typeof NewOrderSchema> = validate(NewOrderSchema, input);
  try {
    const row = await db
      .insertInto('petstore_orders')
      .values({
        pet_id: order.petId,
        quantity: order.quantity,
        ship_date: order.shipDate ?? null,
        status: order.status,
        complete: order.complete,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toOrder(row);
  } catch (error) {
    if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) {
      throw new ApiError(404, ErrorCode.notFound, `pet ${order.petId} does not exist`, undefined, undefined, { cause: error });
    }
    throw error;
  }
}

/** One page of orders ordered by id (primary-key range scan). */
export async function listOrders(db: Kysely<Database>, params: { limit: number; afterId?: bigint }): Promise<Page<StoredOrder>> {
  let query = db.selectFrom('petstore_orders').selectAll();
  if (params.afterId !== undefined) query = query.where('id', '>', params.afterId);
  // No signal: see storage/pets.ts.
  const rows = await query
    .orderBy('id')
    .limit(params.limit + 1)
    .execute();
  const hasMore = rows.length > params.limit;
  return { items: (hasMore ? rows.slice(0, params.limit) : rows).map(toOrder), hasMore };
}
