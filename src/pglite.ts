// `petstore-router/pglite`: embedded PostgreSQL (WASM) for tests, demos and the standalone server.
import type { Kysely } from 'kysely';
import { type PGliteInstance, newPGlite, opened, pgliteKysely } from './drivers/pglite/database.js';
import type { Database } from './storage/database.js';
import { migrateOrDestroy } from './storage/migrate.js';

/** Options of {@link createPGliteDatabase}. */
export interface PGliteDatabaseOptions {
  /** Keep data in this directory (created if missing). Omit for an in-memory database. */
  dataDir?: string;
  /**
   * Use this PGlite instance instead of creating one. It stays yours: `db.destroy()` will not
   * close it; call `pglite.close()` yourself when done.
   */
  pglite?: PGliteInstance;
  /**
   * Apply petstore-router's migrations before returning.
   * @default true
   */
  migrate?: boolean;
}

/**
 * A Kysely database on PGlite, migrated. PGlite has one connection: Kysely's built-in dialect
 * serialises access to it, so concurrent requests never share a transaction.
 *
 * Ownership: a PGlite created here is closed by `db.destroy()`; one you pass in is not.
 *
 * @example
 * ```ts
 * import { createPGliteDatabase } from 'petstore-router/pglite'
 * const db = await createPGliteDatabase()                      // in memory
 * const disk = await createPGliteDatabase({ dataDir: './data' }) // persistent
 * ```
 */
export async function createPGliteDatabase(options: PGliteDatabaseOptions = {}): Promise<Kysely<Database>> {
  if (options.pglite && options.dataDir !== undefined) {
    throw new TypeError('petstore-router: pass either pglite or dataDir to createPGliteDatabase, not both');
  }
  const db = options.pglite
    ? pgliteKysely<Database>(options.pglite, false)
    : pgliteKysely<Database>(newPGlite({ dataDir: options.dataDir }), true);
  return options.migrate === false ? opened(db) : migrateOrDestroy(db);
}
