import { type Kysely, sql } from 'kysely';

// Released migrations are never edited: add a new file instead.

/**
 * Rate-limit counters shared by every process on the database: one row per API key id, holding
 * the start of its current fixed window and the requests counted in it (storage/rate-limits.ts).
 *
 * UNLOGGED: the counters write no WAL, so counting a request does not wait for a WAL flush at
 * commit (a logged table made every counted request wait for one; docs/decisions.md, "rate-limit table"). The price
 * is acceptable for counters: after a PostgreSQL crash the table is empty (every key starts a
 * fresh window), and standbys do not have it (the primary counts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('petstore_rate_limits')
    .modifyFront(sql`unlogged`)
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('petstore_rate_limits').execute();
}
