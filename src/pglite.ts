// `petstore-router/pglite`: embedded PostgreSQL (WASM) for tests, demos and the standalone server.
import { checkPGliteOptions } from './options/pglite.js';
import type { Kysely } from 'kysely';
import { type PGliteInstance, newPGlite } from './drivers/pglite/instance.js';
import { pgliteWasmModule } from './drivers/pglite/wasm.js';
import { holdsDatabase } from './snapshot/data-dir.js';
import type { Database } from './storage/database.js';

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

// This module loads no Kysely: importing it costs PGlite's own modules only, so PGlite's start
// (its WebAssembly's compile first) begins at once and Kysely (some 260 modules) loads meanwhile.
async function openPGliteDatabase(options: PGliteDatabaseOptions): Promise<Kysely<Database>> {
  const migrate = options.migrate !== false;
  if (options.pglite) return (await import('./storage/pglite-kysely.js')).migratedKysely(options.pglite, false, migrate);
  // PGlite's WebAssembly compiles (on V8's background threads) while the snapshot is read and
  // checked, and while Kysely and a caller's own modules load (the standalone server: adapters/cli/serve.ts).
  const wasm = pgliteWasmModule(); // started before this function first waits
  const kysely = import('./storage/pglite-kysely.js');
  kysely.catch(() => {}); // awaited once PGlite is started
  const snapshot = migrate ? await snapshotFor(options) : undefined;
  const pglite = newPGlite({ dataDir: options.dataDir, loadDataDir: snapshot, pgliteWasmModule: await wasm });
  let open: typeof import('./storage/pglite-kysely.js');
  try {
    open = await kysely;
  } catch (error) {
    await pglite.close().catch(() => {});
    throw error;
  }
  return open.migratedKysely(pglite, true, migrate);
}

/**
 * The snapshot a new database starts from (src/snapshot/), none for a data directory that holds a
 * database already; the snapshot code (which loads Kysely) is loaded only when needed.
 */
async function snapshotFor(options: PGliteDatabaseOptions): Promise<Blob | undefined> {
  if (options.snapshot === false) return undefined;
  if (options.dataDir === undefined && options.snapshot !== undefined) return options.snapshot;
  if (options.dataDir !== undefined && holdsDatabase(options.dataDir)) return undefined;
  const { startingSnapshot } = await import('./snapshot/cache.js');
  return startingSnapshot(options.dataDir, options.snapshot);
}

export { browserSnapshot, type BrowserSnapshotOptions } from './snapshot/make-file.js';
