/** Database set-up for the benchmarks: our migrations, then bulk-loaded pets (no HTTP, no ORM). */
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Database } from 'petstore-router';

/**
 * Empties the pets table and loads `count` pets in one statement; statuses cycle available,
 * pending, sold, so a status filter matches a third of the table. VACUUM ANALYZE afterwards,
 * as autovacuum would do soon after a bulk load in production.
 */
export async function seedPets(db: Kysely<Database>, count: number): Promise<void> {
  await sql`truncate table petstore_pets restart identity cascade`.execute(db);
  await sql`insert into petstore_pets (name, category_id, status)
    select 'pet ' || g, g % 50, (array['available', 'pending', 'sold'])[g % 3 + 1]
    from generate_series(1, ${count}::int) g`.execute(db);
  // VACUUM too: it sets hint bits and the visibility map now, so autovacuum does not start
  // (and compete for the 2 cores) in the middle of a measurement.
  await sql`vacuum analyze petstore_pets`.execute(db);
}

/** A database next to `url`'s (same server, name + suffix), created when missing. */
export async function siblingDatabase(url: string, suffix: string): Promise<string> {
  const target = new URL(url);
  const name = `${target.pathname.slice(1)}${suffix}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } catch (error) {
    if ((error as { code?: string }).code !== '42P04') throw error; // 42P04: already exists
  } finally {
    await admin.end();
  }
  target.pathname = `/${name}`;
  return target.toString();
}
