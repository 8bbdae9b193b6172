// `petstore-router/browser`: a migrated pet store on PGlite inside a web page or a Web Worker,
// persisted in IndexedDB (`idb://name`) or in memory. Its `fetch` answers exactly as the server does:
// it is the same `createPetStore`, only the database is made here.
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { Kysely, PGliteDialect } from 'kysely';
import { type Database, type PetStore, type PetStoreOptions, createPetStore, migrate } from 'petstore-router';

/** Options of {@link createBrowserStore}: `createPetStore`'s, with the database described instead of given. */
export interface BrowserStoreOptions extends Omit<PetStoreOptions, 'db'> {
  /** `'idb://name'` keeps the data in IndexedDB across reloads. Omit for an in-memory store. */
  dataDir?: string;
  /**
   * PGlite's own options for the instance made here (e.g. `wasmModule` and `fsBundle`, loaded as
   * your bundler prefers), or a PGlite you made: that one stays yours (`close()` does not close it)
   * and `dataDir` must then be omitted.
   */
  pglite?: PGlite | Omit<PGliteOptions, 'dataDir'>;
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
 * const store = await createBrowserStore({ dataDir: 'idb://petstore-demo', keys: ['demo-key'] })
 * const res = await store.fetch(new Request(new URL('/v1/pets', location.href), {
 *   method: 'POST',
 *   headers: { authorization: 'Bearer demo-key', 'content-type': 'application/json' },
 *   body: JSON.stringify({ name: 'Rex', status: 'available' }),
 * }))
 * // later: await store.close()
 * ```
 */
export async function createBrowserStore(options: BrowserStoreOptions): Promise<BrowserStore> {
  const { dataDir, pglite, ...storeOptions } = options ?? ({} as BrowserStoreOptions);
  if (pglite instanceof PGlite && dataDir !== undefined) {
    throw new TypeError('petstore-router/browser: pass either dataDir or a PGlite of your own (options.pglite), not both');
  }
  // Kysely's own PGlite dialect, not `petstore-router/pglite`: that entry also serves Node, and a
  // page must bundle nothing of Node's.
  const made = pglite instanceof PGlite ? undefined : new PGlite({ ...pglite, dataDir });
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: made ?? (pglite as PGlite) }) });
  // Kysely's dialect closes its PGlite on destroy: only the one made here is ever destroyed.
  const release = async () => {
    if (made) await db.destroy();
  };
  let store: PetStore;
  try {
    await migrate(db);
    store = createPetStore({ ...storeOptions, db });
  } catch (error) {
    await release();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return Object.freeze({
    ...store,
    close: () => (closing ??= release()),
  });
}
