import type { Kysely } from 'kysely';
import type * as v from 'valibot';
import type { Page, StoredOrder } from '../model.js';
import type { NewOrderSchema } from '../schemas/order.js';
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

/** An order as the schema gives it: checked, defaults applied. */
export type ValidOrder = v.InferOutput<typeof NewOrderSchema>;

/**
 * Inserts a valid order; undefined when its pet does not exist (the foreign key refused it).
 */
export async function insertOrder(db: Kysely<Database>, order: ValidOrder): Promise<StoredOrder | undefined> {
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
    if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) return undefined;
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
