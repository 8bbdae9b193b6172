import { type Kysely, sql } from 'kysely';
import { type MigrationResult, Migrator } from 'kysely/migration';
import { migrations } from './migrations/index.js';
import { checkSchemaName } from './schema-name.js';

/** Our own migration bookkeeping tables, so a host application's Kysely migrations never collide. */
export const MIGRATION_TABLE = 'petstore_migration';
export const MIGRATION_LOCK_TABLE = 'petstore_migration_lock';

/** Options of {@link migrate}. */
export interface MigrateOptions {
  /**
   * The PostgreSQL schema to keep petstore-router's tables (and their migration bookkeeping) in,
   * created if missing. Pass the same `schema` to `createPetStore`. Each schema is migrated on its
   * own. Omitted: the connection's default schema (normally `public`).
   */
  schema?: string;
}

/**
 * Applies petstore-router's migrations. Idempotent, and safe when several processes start at
 * once (Kysely takes an advisory lock on PostgreSQL). Throws if a migration fails.
 *
 * @example
 * ```ts
 * import { migrate } from 'petstore-router'
 * await migrate(db) // before createPetStore, if the database was built with { migrate: false }
 * await migrate(db, { schema: 'petstore' }) // our tables in schema "petstore" (createPetStore({ db, schema: 'petstore', keys }))
 * ```
 */
export async function migrate<DB>(db: Kysely<DB>, options: MigrateOptions = {}): Promise<MigrationResult[]> {
  // Without a schema: the connection's current one, named, because Kysely's Migrator otherwise
  // takes a bookkeeping table of the same name in ANY schema (e.g. another store's) for ours.
  const schema = options.schema === undefined ? await currentSchema(db) : checkSchemaName(options.schema, 'migrate: options.schema');
  // In a schema: the migrations' statements (withSchema) and Kysely's bookkeeping tables
  // (migrationTableSchema) both go there, so each schema records its own migrations.
  const migrator = new Migrator({
    db: schema === undefined ? db : db.withSchema(schema),
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  // Migrator reports failure as data rather than throwing: check and throw.
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw new Error(`petstore-router migration failed: ${describe(error)}`, { cause: error });
  return results ?? [];
}

/** Migrates a database a helper just built; on failure releases it (nothing leaks) and throws. */
export async function migrateOrDestroy<DB>(db: Kysely<DB>, options: MigrateOptions = {}): Promise<Kysely<DB>> {
  try {
    await migrate(db, options);
    return db;
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

async function currentSchema<DB>(db: Kysely<DB>): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
