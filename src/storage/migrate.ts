import type { Kysely } from 'kysely';
import { type MigrationResult, Migrator } from 'kysely/migration';
import { migrations } from './migrations/index.js';

/** Our own migration bookkeeping tables, so a host application's Kysely migrations never collide. */
export const MIGRATION_TABLE = 'petstore_migration';
export const MIGRATION_LOCK_TABLE = 'petstore_migration_lock';

/**
 * Applies petstore-router's migrations. Idempotent, and safe when several processes start at
 * once (Kysely takes an advisory lock on PostgreSQL). Throws if a migration fails.
 *
 * @example
 * ```ts
 * import { migrate } from 'petstore-router'
 * await migrate(db) // before createPetStore, if the database was built with { migrate: false }
 * ```
 */
export async function migrate(db: Kysely<any>): Promise<MigrationResult[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  // Migrator reports failure as data rather than throwing: check and throw.
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw new Error(`petstore-router migration failed: ${describe(error)}`, { cause: error });
  return results ?? [];
}

/** Migrates a database a helper just built; on failure releases it (nothing leaks) and throws. */
export async function migrateOrDestroy<DB>(db: Kysely<DB>): Promise<Kysely<DB>> {
  try {
    await migrate(db);
    return db;
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
