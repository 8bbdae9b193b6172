import type { Kysely } from 'kysely';
import type { Database } from '../../src/index.js';
import { createPostgresDatabase } from '../../src/pg.js';
import { createPGliteDatabase } from '../../src/pglite.js';
import { databaseUrl } from './postgres-test.js';

/**
 * One in-memory PGlite per test process: `PGlite.create()` runs initdb (seconds), so test files
 * share one instance and reset state between tests instead (milliseconds).
 */
let pglite: Promise<Kysely<Database>> | undefined;
export function sharedPGlite(): Promise<Kysely<Database>> {
  pglite ??= createPGliteDatabase();
  return pglite;
}

/** PostgreSQL from DATABASE_URL, or undefined when unset (CI always sets it; see .ci/run). */
let postgres: Promise<Kysely<Database>> | undefined;
export function sharedPostgres(): Promise<Kysely<Database>> | undefined {
  const url = databaseUrl();
  if (!url) return undefined;
  postgres ??= createPostgresDatabase(url);
  return postgres;
}

/**
 * PostgreSQL through a transaction-mode PgBouncer with its default settings, from PGBOUNCER_URL
 * (`.ci/run` starts one with ../shared/tools/pgbouncer.sh and sets it), or undefined when unset
 * outside CI.
 */
let pgbouncer: Promise<Kysely<Database>> | undefined;
export function sharedPgBouncer(): Promise<Kysely<Database>> | undefined {
  const url = pgbouncerUrl();
  if (!url) return undefined;
  pgbouncer ??= createPostgresDatabase(url);
  return pgbouncer;
}

/** PGBOUNCER_URL, required in CI (the pooled run may not be skipped there). */
export function pgbouncerUrl(): string | undefined {
  const url = process.env.PGBOUNCER_URL;
  if (!url && process.env.CI) throw new Error('PGBOUNCER_URL must be set in CI: the PgBouncer run may not be skipped');
  return url || undefined;
}

/** Empties every table and restarts id sequences, so each test starts from nothing. */
export { resetDatabase } from '../../src/storage/reset.js';
