// `petstore-router/browser`: a migrated pet store on PGlite inside a web page or a Web Worker,
// persisted in IndexedDB (`idb://name`) or in memory. Its `fetch` answers exactly as the server does:
// it is the same `createPetStore`, only the database is made here. Nothing of Node's is imported.
import { isPGlite, type PagePGliteOptions } from './drivers/pglite/page.js';
import { type PGliteInstance, pgliteKysely } from './drivers/pglite/database.js';
import { type SnapshotSource, startPagePGlite } from './snapshot/page.js';
import type { Kysely } from 'kysely';
import { directoryKysely } from './browser/directory.js';
import { StoreInUseError, holdDirectory } from './browser/exclusive.js';
import { canShare, shareDirectory } from './browser/tabs.js';
import type { Database } from './storage/database.js';
import { migrate } from './storage/migrate.js';
import { migrationsCurrent } from './storage/migrations-current.js';
import { type PetStore, type PetStoreOptions, createPetStore } from './store.js';
import { checkBrowserOptions } from './options/browser.js';

export type { SnapshotSource } from './snapshot/page.js';
export { StoreInUseError };

/** Options of {@link createBrowserStore}: `createPetStore`'s, with the database described instead of given. */
export interface BrowserStoreOptions extends Omit<PetStoreOptions, 'db'> {
  /** `'idb://name'` keeps the data in IndexedDB across reloads. Omit for an in-memory store. */
  dataDir?: string;
  /**
   * PGlite's own options for the instance made here (e.g. `pgliteWasmModule` and `fsBundle`, loaded as
   * your bundler prefers), or a PGlite you made: that one stays yours (`close()` does not close it)
   * and `dataDir` must then be omitted.
   */
  pglite?: PGliteInstance | PagePGliteOptions;
  /**
   * The pre-migrated snapshot file (`petstore-router snapshot <file>`): its URL (fetched only when
   * needed), its `Response`, or the file as a `Blob`. Loaded when the data directory is new (in
   * memory, or an `idb://` directory this origin has not opened); an existing store is opened as it
   * is. A file made by another release of petstore-router, other migrations or another PGlite is not
   * used: the store is then migrated from scratch and the console says why. Not with your own PGlite.
   */
  snapshot?: SnapshotSource;
}

/** A pet store in the page: `fetch` as the server answers, `close()` to release its database. */
export interface BrowserStore extends PetStore {
  /** Closes the database (and the PGlite made here); IndexedDB keeps what was written. */
  close(): Promise<void>;
}

/**
 * A pet store on PGlite in the browser, migrated and ready.
 *
 * @example
 * ```ts
 * import { createBrowserStore } from 'petstore-router/browser'
 *
 * const store = await createBrowserStore({
 *   dataDir: 'idb://petstore-demo',
 *   keys: ['demo-key'],
 *   snapshot: '/petstore.snapshot', // optional: `petstore-router snapshot public/petstore.snapshot`
 * })
 * const res = await store.fetch(new Request(new URL('/v1/pets', location.href), {
 *   method: 'POST',
 *   headers: { authorization: 'Bearer demo-key', 'content-type': 'application/json' },
 *   body: JSON.stringify({ name: 'Rex', status: 'available' }),
 * }))
 * // later: await store.close()
 * ```
 */
export async function createBrowserStore(options: BrowserStoreOptions): Promise<BrowserStore> {
  checkBrowserOptions(options, isPGlite);
  const { dataDir, pglite, snapshot, ...storeOptions } = options;
  const own = isPGlite(pglite);
  let db: Kysely<Database>;
  if (!own && dataDir !== undefined && !dataDir.startsWith('memory://')) {
    // A persistent directory: one PGlite on it, in the tab that leads (tabs.ts), or in this one alone.
    const open = () => openDirectory(pglite, dataDir, snapshot);
    db = directoryKysely(canShare() ? await shareDirectory(dataDir, open) : await holdDirectory(dataDir, open));
  } else {
    const made = own ? undefined : await startPagePGlite(pglite, dataDir, snapshot);
    // Kysely's dialect closes only a PGlite made here (`db.destroy()` leaves the caller's open).
    db = pgliteKysely<Database>(made ?? (pglite as PGliteInstance), made !== undefined);
    try {
      await migrate(db); // finds nothing to do on a store started from the snapshot
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }
  let store: PetStore;
  try {
    store = createPetStore({ ...storeOptions, db });
  } catch (error) {
    await db.destroy();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return Object.freeze({
    ...store,
    close: () => (closing ??= db.destroy()),
  });
}

/** The PGlite of a persistent directory, started (from the snapshot when new) and migrated. */
async function openDirectory(options: PagePGliteOptions | undefined, dataDir: string, snapshot?: SnapshotSource): Promise<PGliteInstance> {
  const pglite = await startPagePGlite(options, dataDir, snapshot);
  const db = pgliteKysely<Database>(pglite, false);
  try {
    // A directory opened again (a reload, a takeover) is migrated already: one select says so.
    if (!(await migrationsCurrent(db))) await migrate(db);
    return pglite;
  } catch (error) {
    await pglite.close().catch(() => {});
    throw error;
  } finally {
    await db.destroy();
  }
}
