import { type Kysely, type Transaction, sql } from 'kysely';
import { type Migration, type MigrationResult, Migrator } from 'kysely/migration';
import { migrations } from './migrations/index.js';
import { checkSchemaName } from '../options/schema.js';

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
 * Applies petstore-router's migrations, in one transaction. Idempotent, and safe when several
 * processes start at once, directly or through a transaction pooler (an advisory lock holds the
 * others back until the transaction ends). Throws if a migration fails.
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
  const schema = options.schema === undefined ? await currentSchema(db) : checkSchemaName(options.schema, 'migrate');
  // All of it in one transaction, so on one backend even through a transaction-mode pooler
  // (PgBouncer lends a backend per transaction). Kysely's Migrator, given a Kysely, takes its
  // lock (a session `pg_advisory_lock`) and releases it in statements of their own: through a
  // pooler they can land on different backends, and the lock stayed held on one that went back to
  // the pool, so every later migration waited on it (test/reliability/pgbouncer-migration.test.ts).
  let failure: Error | undefined;
  try {
    // A caller's transaction already keeps every statement on its connection.
    if (db.isTransaction) return await migrateIn(db as Transaction<DB>);
    return await db.transaction().execute((trx) => migrateIn(trx));
  } catch (error) {
    // A broken connection (a statement timed out) also fails the ROLLBACK, whose error Kysely
    // throws instead: the migration's own failure is the one to report.
    throw failure ?? new Error(`petstore-router migration failed: ${describe(error)}`, { cause: error });
  }

  async function migrateIn(trx: Transaction<DB>): Promise<MigrationResult[]> {
    await takeMigrationLock(trx);
    await sql`savepoint petstore_migrate`.execute(trx);
    // In a schema: the migrations' statements (withSchema) and Kysely's bookkeeping tables
    // (migrationTableSchema) both go there, so each schema records its own migrations.
    const migrator = new Migrator({
      db: schema === undefined ? trx : trx.withSchema(schema),
      provider: { getMigrations: () => Promise.resolve(inSavepoints(migrations)) },
      migrationTableName: MIGRATION_TABLE,
      migrationLockTableName: MIGRATION_LOCK_TABLE,
      ...(schema === undefined ? {} : { migrationTableSchema: schema }),
    });
    // Migrator reports failure as data rather than throwing: check and throw.
    const { error, results } = await migrator.migrateToLatest();
    if (error) {
      failure = new Error(`petstore-router migration failed: ${describe(error)}`, { cause: error });
      // Kysely's session lock outlives a failed migration (its release ran in the aborted
      // transaction): back to the savepoint, and this backend gives up its session locks before the
      // transaction ends, so no backend a pooler lends again holds one. Where that fails the
      // connection is broken (a statement timed out): it is destroyed, its session with it.
      try {
        await sql`rollback to savepoint petstore_migrate`.execute(trx);
        await sql`select pg_advisory_unlock_all()`.execute(trx);
      } catch {
        // The failure to report is the migration's.
      }
      throw failure;
    }
    return results ?? [];
  }
}

/**
 * A migration in a savepoint of its own: when it fails, the transaction is rolled back to before
 * it and stays usable, so the Migrator's closing statements (its lock's release) still run and the
 * error it reports is the migration's, not "current transaction is aborted".
 */
function inSavepoint(migration: Migration): Migration {
  return {
    ...migration,
    async up(db) {
      await sql`savepoint petstore_migration_step`.execute(db);
      try {
        await migration.up(db);
      } catch (error) {
        // Where this fails too the connection is broken: the migration's error is still the one to report.
        await sql`rollback to savepoint petstore_migration_step`.execute(db).catch(() => {});
        throw error;
      }
      await sql`release savepoint petstore_migration_step`.execute(db);
    },
  };
}

/** Every migration of `all` in a savepoint of its own; read when the Migrator asks, so the list as it is then. */
function inSavepoints(all: Record<string, Migration>): Record<string, Migration> {
  return Object.fromEntries(Object.entries(all).map(([name, migration]) => [name, inSavepoint(migration)]));
}

/** How long a process waits for another's migration before it gives up. */
const MIGRATION_LOCK_WAIT_MS = 120_000;

/**
 * One migration at a time: a transaction lock of ours, released with the transaction. Taken by
 * short tries rather than one blocking `pg_advisory_xact_lock`, so waiting for another process's
 * migration is never cut by the driver's statement timeout (processes starting together wait their turn).
 */
async function takeMigrationLock<DB>(trx: Transaction<DB>): Promise<void> {
  const giveUpAt = performance.now() + MIGRATION_LOCK_WAIT_MS;
  for (let pauseMs = 20; ; pauseMs = Math.min(pauseMs * 2, 500)) {
    const { rows } = await sql<{ taken: boolean }>`select pg_try_advisory_xact_lock(${sql.raw(MIGRATION_LOCK_KEY)}) as taken`.execute(trx);
    if (rows[0]?.taken) return;
    if (performance.now() > giveUpAt)
      throw new Error(
        `another process has held petstore-router's migration lock for ${MIGRATION_LOCK_WAIT_MS / 1000} s: look for a stuck migration (pg_locks, locktype 'advisory') and end it, then start again`,
      );
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/** The key of our migration lock (`pg_advisory_xact_lock`): "petstore" in ASCII (0x70657473746f7265) as an int8. */
const MIGRATION_LOCK_KEY = '8099007544119226981';

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
