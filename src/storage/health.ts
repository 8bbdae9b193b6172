import { type Kysely, sql } from 'kysely';
import type { Database } from './database.js';

/** Every table of ours: the `satisfies` keeps this list equal to the Database interface's. */
const TABLES = {
  petstore_pets: true,
  petstore_orders: true,
  petstore_idempotency_keys: true,
  petstore_rate_limits: true,
} as const satisfies Record<keyof Database, true>;

/**
 * The health check's query: resolves once the database answered it with every table of ours in
 * place. `limit 0` reads no row, but PostgreSQL resolves every table named first, so a database
 * never migrated, or migrated by an older version (a newer table missing), fails with
 * undefined_table, classified as not migrated (drivers/classify.ts). Built by the query builder,
 * so a store's schema (WithSchemaPlugin) qualifies the tables as the store's statements do.
 */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  const tables = Object.keys(TABLES) as (keyof Database)[];
  await db
    .selectFrom(tables)
    .select(sql<number>`1`.as('one'))
    .limit(0)
    .execute();
}
