import { type Kysely, sql } from 'kysely';
import type * as v from 'valibot';
import type { OrderRecord, OrderStatus, Page } from '../model.js';
import type { NewOrderSchema } from '../schemas/order.js';
import type { Database } from './database.js';
import { isForeignKeyViolation } from '../drivers/classify.js';

// The int64 rule of model.ts, as for pets: ids go in as bigint parameters and come out as
// PostgreSQL's canonical decimal text (`::text`), whatever the driver's int8 parser.

/** The columns of every order statement, in the API's names, int64 as text. */
const COLUMNS = [
  sql<string>`"id"::text`.as('id'),
  sql<string>`"pet_id"::text`.as('petId'),
  'quantity',
  'ship_date as shipDate',
  'status',
  'complete',
] as const;

interface OrderColumns {
  id: string;
  petId: string;
  quantity: number;
  shipDate: Date | string | null;
  status: OrderStatus;
  complete: boolean;
}

function toRecord(row: OrderColumns): OrderRecord {
  const order: OrderRecord = { id: row.id, petId: row.petId, quantity: row.quantity, status: row.status, complete: row.complete };
  if (row.shipDate !== null) order.shipDate = new Date(row.shipDate);
  return order;
}

/** An order as the schema gives it: checked, defaults applied. */
export type ValidOrder = v.InferOutput<typeof NewOrderSchema>;

/**
 * Inserts a valid order; undefined when its pet does not exist (the foreign key refused it).
 */
export async function insertOrder(db: Kysely<Database>, order: ValidOrder): Promise<OrderRecord | undefined> {
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
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toRecord(row);
  } catch (error) {
    if (isForeignKeyViolation(error)) return undefined;
    throw error;
  }
}

/** One page of orders ordered by id (primary-key range scan). */
export async function listOrders(db: Kysely<Database>, params: { limit: number; afterId?: bigint }): Promise<Page<OrderRecord>> {
  let query = db.selectFrom('petstore_orders').select(COLUMNS);
  if (params.afterId !== undefined) query = query.where('id', '>', params.afterId);
  // No signal: see storage/pets.ts. Qualified: a bare `id` in ORDER BY is the output column, here text.
  const rows = await query
    .orderBy('petstore_orders.id')
    .limit(params.limit + 1)
    .execute();
  const hasMore = rows.length > params.limit;
  return { items: (hasMore ? rows.slice(0, params.limit) : rows).map(toRecord), hasMore };
}
