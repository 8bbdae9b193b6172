import { type Kysely, sql } from 'kysely';

const TABLES = ['petstore_orders', 'petstore_pets', 'petstore_idempotency_keys', 'petstore_rate_limits'] as const;

/**
 * Empties every petstore-router table and restarts the id sequences, in one statement: the
 * database is then as a fresh migrated one: far cheaper than a new database (figures in
 * docs/testing.md). Raw SQL, so
 * the tables are qualified here with `schema` (a `withSchema` plugin does not reach raw SQL).
 */
export async function resetDatabase<DB>(db: Kysely<DB>, schema?: string): Promise<void> {
  const tables = TABLES.map((t) => (schema === undefined ? sql.id(t) : sql.id(schema, t)));
  await sql`truncate table ${sql.join(tables)} restart identity cascade`.execute(db);
}
