import type { Kysely } from 'kysely';

// Released migrations are never edited: add a new file instead.

/**
 * Rate-limit counters shared by every process on the database: one row per API key id, holding
 * the start of its current fixed window and the requests counted in it (storage/rate-limits.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('petstore_rate_limits')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('petstore_rate_limits').execute();
}
