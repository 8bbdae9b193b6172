import { type Kysely, sql } from 'kysely';

/** The health check's trivial query: resolves once the database answered it. */
export async function pingDatabase<DB>(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}
