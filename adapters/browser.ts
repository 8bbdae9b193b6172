// `petstore-router/browser`: a migrated pet store on PGlite inside a web page or a Web Worker,
// persisted in IndexedDB (`idb://name`) or in memory. Its `fetch` answers exactly as the server does:
// it is the same `createPetStore`, only the database is made here.
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { type PetStore, type PetStoreOptions, createPetStore } from 'petstore-router';
import { createPGliteDatabase } from 'petstore-router/pglite';

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
  // The PGlite is made here (or is the user's) and handed over as a PGlite of one's own: its
  // options are PGlite's, loaded as the page's bundler prefers, and `close()` ends the one made here.
  const made = pglite instanceof PGlite ? undefined : new PGlite({ ...pglite, dataDir });
  const db = await createPGliteDatabase({ pglite: made ?? (pglite as PGlite) }).catch(async (error: unknown) => {
    await made?.close();
    throw error;
  });
  let store: PetStore;
  try {
    store = createPetStore({ ...storeOptions, db });
  } catch (error) {
    await db.destroy();
    await made?.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return Object.freeze({
    ...store,
    close: () =>
      (closing ??= (async () => {
        await db.destroy();
        await made?.close();
      })()),
  });
}
