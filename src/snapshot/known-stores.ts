// Which persistent data directories (idb://…) a browser store of this origin has opened, kept in an
// IndexedDB database of ours (`petstore-router`), so a page downloads and loads the snapshot file
// only for a directory that is new. A hint, never the guard: PGlite itself refuses to load a
// tarball over a directory that holds a database, and the caller then opens that database as it is.

const DATABASE = 'petstore-router';
const STORE = 'browser-stores';

/** Whether a store in `dataDir` was opened before on this origin (false when unknown). */
export async function knownStore(dataDir: string): Promise<boolean> {
  const db = await markers();
  if (!db) return false;
  try {
    const request = db.transaction(STORE, 'readonly').objectStore(STORE).count(dataDir);
    return (await settled(request)) > 0;
  } catch {
    return false;
  } finally {
    db.close();
  }
}

/** Records that a store in `dataDir` opened (best effort: without it the next open tries the snapshot and PGlite refuses it). */
export async function rememberStore(dataDir: string): Promise<void> {
  const db = await markers();
  if (!db) return;
  try {
    const transaction = db.transaction(STORE, 'readwrite');
    transaction.objectStore(STORE).put(Date.now(), dataDir);
    await new Promise<void>((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = transaction.onabort = () => reject(transaction.error ?? new Error('aborted'));
    });
  } catch {
    // a hint only
  } finally {
    db.close();
  }
}

async function markers(): Promise<IDBDatabase | undefined> {
  if (typeof indexedDB === 'undefined') return undefined;
  try {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    return await settled(request);
  } catch {
    return undefined; // e.g. storage refused: no hint
  }
}

function settled<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}
