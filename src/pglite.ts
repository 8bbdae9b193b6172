// `petstore-router/pglite`: embedded PostgreSQL (WASM) for tests, demos and the standalone server.
import { checkPGliteOptions } from './options/pglite.js';
import type { Kysely } from 'kysely';
import { opened, pgliteKysely } from './drivers/pglite/database.js';
import { type PGliteInstance, newPGlite } from './drivers/pglite/instance.js';
import type { Database } from './storage/database.js';
import { migrateOrDestroy } from './storage/migrate.js';
import { migrationsCurrent } from './storage/migrations-current.js';

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
  /**
   * @internal Where a new database of ours starts from when migrating: a tarball of
   * `migratedSnapshot()` (src/snapshot/snapshot.ts), `false` for initdb + migrations, omitted for
   * the per-machine cache (src/snapshot/cache.ts). Ignored for an existing `dataDir` and with `pglite`.
   */
  snapshot?: Blob | false;
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
export function createPGliteDatabase(options: PGliteDatabaseOptions = {}): Promise<Kysely<Database>> {
  checkPGliteOptions(options); // synchronously: a wrong option throws here, before PGlite starts
  return openPGliteDatabase(options);
}

async function openPGliteDatabase(options: PGliteDatabaseOptions): Promise<Kysely<Database>> {
  if (options.pglite) {
    const db = pgliteKysely<Database>(options.pglite, false);
    return options.migrate === false ? opened(db) : migrateOrDestroy(db);
  }
  // PGlite's WebAssembly compiles (on V8's background threads) while the snapshot is read and
  // checked, and while a caller loads its own modules (the standalone server: adapters/cli/serve.ts).
  const wasm = import('./drivers/pglite/wasm.js').then(
    ({ pgliteWasmModule }) => pgliteWasmModule(),
    () => undefined,
  );
  const snapshot = options.migrate === false ? undefined : await snapshotFor(options);
  const pglite = newPGlite({ dataDir: options.dataDir, loadDataDir: snapshot, pgliteWasmModule: await wasm });
  const db = pgliteKysely<Database>(pglite, true);
  // A snapshot, or a data directory opened again, is normally migrated already: one select says so.
  return options.migrate === false ? opened(db) : (await migrationsCurrent(db)) ? opened(db) : migrateOrDestroy(db);
}

/**
 * The snapshot a new database starts from (src/snapshot/), none for a data directory that holds a
 * database already; the snapshot code (which loads Kysely) is loaded only when needed.
 */
async function snapshotFor(options: PGliteDatabaseOptions): Promise<Blob | undefined> {
  if (options.snapshot === false) return undefined;
  if (options.dataDir === undefined && options.snapshot !== undefined) return options.snapshot;
  if (options.dataDir !== undefined) {
    const { holdsDatabase } = await import('./snapshot/data-dir.js');
    if (holdsDatabase(options.dataDir)) return undefined;
  }
  const { startingSnapshot } = await import('./snapshot/cache.js');
  return startingSnapshot(options.dataDir, options.snapshot);
}

export { browserSnapshot, type BrowserSnapshotOptions } from './snapshot/make-file.js';
