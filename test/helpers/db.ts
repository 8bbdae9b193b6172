import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/index.js';
import { createPostgresDatabase } from '../../src/pg.js';
import { createPGliteDatabase } from '../../src/pglite.js';
import { cachedSnapshot } from '../../src/snapshot/cache.js';
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

/**
 * A PGlite of a caller's own, started from the pre-migrated snapshot: `new PGlite()` runs initdb,
 * seconds of CPU, for a test that only needs some PGlite to pass in.
 */
export async function ownPGlite(options: PGliteOptions = {}): Promise<PGlite> {
  return new PGlite({ ...options, loadDataDir: await cachedSnapshot() });
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

/**
 * PostgreSQL from DATABASE_URL with the streaming replica at REPLICA_URL (the same database on the
 * standby `.ci/run` starts with ../shared/tools/pg-replica.sh) as its read replica, or undefined
 * when REPLICA_URL is unset outside CI.
 */
let replicated: Promise<Kysely<Database>> | undefined;
export function sharedReplicated(): Promise<Kysely<Database>> | undefined {
  const url = databaseUrl();
  const replica = replicaUrl();
  if (!url || !replica) return undefined;
  // Migrated by sharedPostgres() (one migration of the database per process, not one per helper).
  replicated ??= sharedPostgres()!.then(() => createPostgresDatabase(url, { readReplicas: [replica], migrate: false }));
  return replicated;
}

/** REPLICA_URL, required in CI (the replica run may not be skipped there). */
export function replicaUrl(): string | undefined {
  const url = process.env.REPLICA_URL;
  if (!url && process.env.CI) throw new Error('REPLICA_URL must be set in CI: the read-replica run may not be skipped');
  return url || undefined;
}

/**
 * PostgreSQL through PgBouncer (PGBOUNCER_URL) with the replica through a PgBouncer of its own
 * (REPLICA_PGBOUNCER_URL, scripts/replica-pgbouncer.sh) as read replica, or undefined when either
 * is unset outside CI.
 */
let replicatedPooled: Promise<Kysely<Database>> | undefined;
export function sharedReplicatedPooled(): Promise<Kysely<Database>> | undefined {
  const url = pgbouncerUrl();
  const replica = process.env.REPLICA_PGBOUNCER_URL;
  if (!replica && process.env.CI)
    throw new Error('REPLICA_PGBOUNCER_URL must be set in CI: the pooled read-replica run may not be skipped');
  if (!url || !replica) return undefined;
  // Migrated by sharedPgBouncer() (one migration of the database per process, not one per helper).
  replicatedPooled ??= sharedPgBouncer()!.then(() => createPostgresDatabase(url, { readReplicas: [replica], migrate: false }));
  return replicatedPooled;
}
