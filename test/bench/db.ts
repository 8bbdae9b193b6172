/** Database set-up for the benchmarks: our migrations, then bulk-loaded pets (no HTTP, no ORM). */
import { type Kysely, sql } from 'kysely';
import type { Database } from 'petstore-router';

/**
 * Empties the pets table and loads `count` pets in one statement; statuses cycle available,
 * pending, sold, so a status filter matches a third of the table. ANALYZE afterwards, as
 * autovacuum would do soon after a bulk load in production.
 */
export async function seedPets(db: Kysely<Database>, count: number): Promise<void> {
  await sql`truncate table petstore_pets restart identity cascade`.execute(db);
  await sql`insert into petstore_pets (name, category_id, status)
    select 'pet ' || g, g % 50, (array['available', 'pending', 'sold'])[g % 3 + 1]
    from generate_series(1, ${count}::int) g`.execute(db);
  await sql`analyze petstore_pets`.execute(db);
}
