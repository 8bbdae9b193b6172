// Where tabs cannot share a directory (no Web Locks or no BroadcastChannel: some webviews), one
// handle holds it alone: a lease in an IndexedDB database of ours, renewed while the handle lives.
// A second handle, in this tab or another, fails at creation with StoreInUseError, so two PGlites
// never write their own copies over each other. A handle runs a statement only within half a lease
// of its last renewal, so a lease that lapsed (a tab asleep) is never written over.
import type { PGliteInstance as PGlite } from '../drivers/pglite/database.js';
import { type DirectoryDatabase, closedError, onPageHide } from './directory.js';
import { checkpointWhenQuiet } from './quiet-checkpoint.js';

/** How long a holder that stopped renewing (a crashed tab) keeps the directory. */
export const LEASE_MS = 10_000;
const DATABASE = 'petstore-router-holders';
const STORE = 'holders';

/** `createBrowserStore` on a directory another handle holds, in a browser that cannot share it. */
export class StoreInUseError extends Error {
  override readonly name = 'StoreInUseError';
  readonly code = 'store_in_use';
  constructor(readonly dataDir: string) {
    super(
      `petstore-router/browser: ${dataDir} is open in another tab or handle, and this browser cannot share a store between tabs (it lacks Web Locks or BroadcastChannel): close the other one first (store.close() or its tab; a crashed tab frees it within ${LEASE_MS / 1000} s)`,
    );
  }
}

/** The directory held by this handle alone, or StoreInUseError. */
export async function holdDirectory(dataDir: string, open: () => Promise<PGlite>): Promise<DirectoryDatabase> {
  const self = crypto.randomUUID();
  await lease(dataDir, self, true);
  let renewed = Date.now();
  let closed = false;
  let lost: Error | undefined;
  let pglite: PGlite | undefined;
  let paused: Promise<unknown> | undefined; // the page is hidden: closed cleanly, opened again when it shows
  const renew = async () => {
    try {
      await lease(dataDir, self, true);
      renewed = Date.now();
    } catch (error) {
      lost ??= error instanceof Error ? error : new Error(String(error));
      await pglite?.close().catch(() => {});
    }
  };
  // Renewed from the claim on: opening a new directory (initdb) can take longer than a lease.
  const timer = setInterval(() => void (paused ?? renew()), LEASE_MS / 4);
  try {
    pglite = await open();
  } catch (error) {
    clearInterval(timer);
    await lease(dataDir, self, false).catch(() => {});
    throw error;
  }
  const usable = async () => {
    if (closed) throw closedError();
    await paused;
    if (lost === undefined && Date.now() - renewed > LEASE_MS / 2) await renew();
    if (lost !== undefined) throw lost;
    return pglite!;
  };
  let quiet = checkpointWhenQuiet(pglite);
  const quietly = <T>(task: Promise<T>, sql?: string) => task.finally(() => quiet.after(sql));
  const stop = async () => {
    quiet.stop(); // closing PGlite checkpoints
    await pglite?.close().catch(() => {});
    await lease(dataDir, self, false).catch(() => {});
  };
  const stopWatching = onPageHide(
    () => void (paused ??= stop()),
    () => {
      paused = paused
        ?.then(() => lease(dataDir, self, true))
        .then(() => open())
        .then((reopened) => {
          pglite = reopened;
          quiet = checkpointWhenQuiet(reopened);
          renewed = Date.now();
        })
        .catch((error: unknown) => (lost ??= error instanceof Error ? error : new Error(String(error))))
        .finally(() => (paused = undefined));
    },
  );
  return {
    get closed() {
      return closed;
    },
    ready: true,
    waitReady: Promise.resolve(),
    query: async (sql, params, options) => quietly((await usable()).query(sql, params, options), sql),
    transaction: async (fn) => quietly((await usable()).transaction(fn)),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      stopWatching();
      await (paused ?? stop());
    },
  };
}

/** Takes (or renews) the lease of `dataDir` for `holder`, or lets it go (`take` false); StoreInUseError when another holds it. */
function lease(dataDir: string, holder: string, take: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DATABASE, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
    opening.onerror = () => reject(opening.error ?? new Error('IndexedDB refused'));
    opening.onsuccess = () => {
      const db = opening.result;
      // One readwrite transaction: two handles claiming at once are serialized by IndexedDB.
      const transaction = db.transaction(STORE, 'readwrite');
      const store = transaction.objectStore(STORE);
      let refused = false;
      const read = store.get(dataDir);
      read.onsuccess = () => {
        const current = read.result as { holder: string; until: number } | undefined;
        const other = current !== undefined && current.holder !== holder && current.until > Date.now();
        if (take && other) refused = true;
        else if (take) store.put({ holder, until: Date.now() + LEASE_MS }, dataDir);
        else if (current?.holder === holder) store.delete(dataDir);
      };
      transaction.oncomplete = () => {
        db.close();
        if (refused) reject(new StoreInUseError(dataDir));
        else resolve();
      };
      transaction.onerror = transaction.onabort = () => {
        db.close();
        reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
      };
    };
  });
}
