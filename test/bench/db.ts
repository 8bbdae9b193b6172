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

/**
 * Brings the pets table back to what seedPets(count) left, before a measurement: the rows an
 * earlier create round added are deleted and vacuumed away, and a checkpoint is taken. Without it
 * each create round found a bigger table than the one before (5 rounds x 3 servers x ~35,000
 * inserts) and PostgreSQL's autovacuum and checkpoints ran on the shared cores at random, inside
 * one server's round: in the run of 2026-11-23T04:00Z our server's create moved between 88 and
 * 120 us per request across rounds, Fastify's between 84 and 106 (docs/performance.md).
 */
export async function settlePets(db: Kysely<Database>, count: number): Promise<void> {
  const { numAffectedRows } = await sql`delete from petstore_pets where id > ${count}`.execute(db);
  if (numAffectedRows !== 0n) await sql`vacuum petstore_pets`.execute(db);
  await sql`checkpoint`.execute(db);
}

/**
 * Autovacuum off for the pets table while `fn` runs (settlePets vacuums between rounds instead),
 * so it cannot start inside a measurement; restored afterwards.
 */
export async function withoutAutovacuum<T>(db: Kysely<Database>, fn: () => Promise<T>): Promise<T> {
  await sql`alter table petstore_pets set (autovacuum_enabled = false)`.execute(db);
  try {
    return await fn();
  } finally {
    await sql`alter table petstore_pets reset (autovacuum_enabled)`.execute(db);
  }
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
