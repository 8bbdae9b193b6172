import { type Kysely, sql } from 'kysely';
import type { Database } from './database.js';

/**
 * Empties every petstore-router table and restarts the id sequences, in one statement: the
 * database is then as a fresh migrated one. About 5 ms on PGlite, the cheapest fresh store there
 * is once a database exists (a new PGlite costs about 0.4 s even from a template).
 */
export async function resetDatabase(db: Kysely<Database> | Kysely<any>): Promise<void> {
  await sql`truncate table petstore_orders, petstore_pets, petstore_idempotency_keys, petstore_rate_limits restart identity cascade`.execute(db);
}
