// Starting the PGlite of a browser store from the snapshot file (file.ts) when its data directory
// is new: in memory, or an idb:// directory this origin has not opened before (known-stores.ts).
// A file that does not match this code is never loaded: the store is then migrated from scratch, as
// without a snapshot, and the console says why (docs/decisions.md, "Snapshot in the browser").
import type { PGliteInstance as PGlite } from '../drivers/pglite/database.js';
import { type PagePGliteOptions, newPagePGlite, pgliteRelease } from '../drivers/pglite/page.js';
import { type SnapshotFile, readSnapshotFile } from './file.js';
import { knownStore, rememberStore } from './known-stores.js';

/** What `createBrowserStore({ snapshot })` takes: the file, its HTTP response, or its URL. */
export type SnapshotSource = Blob | Response | URL | string;

const WHERE = 'petstore-router/browser';

/**
 * @internal A started PGlite for a browser store: from `snapshot` when the directory is new and the
 * file matches this code and the running PGlite, else booted and left to be migrated.
 */
export async function startPagePGlite(
  options: PagePGliteOptions | undefined,
  dataDir: string | undefined,
  snapshot?: SnapshotSource,
): Promise<PGlite> {
  const persistent = dataDir !== undefined && !dataDir.startsWith('memory://');
  const file = snapshot === undefined ? undefined : await fileToLoad(snapshot, persistent ? dataDir : undefined);
  if (file) {
    const pglite = newPagePGlite(options, dataDir, file.tarball);
    try {
      await pglite.waitReady;
      const release = await pgliteRelease(pglite);
      if (release === file.pgliteVersion || persistent) {
        // In IndexedDB the directory is written by now: PostgreSQL accepted it, as it accepts an
        // existing store after a PGlite upgrade. In memory another PGlite's file is not kept.
        if (release !== file.pgliteVersion)
          warn(
            `the snapshot was made by PGlite ${file.pgliteVersion}, this page runs ${release ?? 'a PGlite that does not name its release'}: make the snapshot again`,
          );
        if (persistent) await rememberStore(dataDir);
        return pglite;
      }
      warn(
        `not using the snapshot: made by PGlite ${file.pgliteVersion}, this page runs ${release ?? 'a PGlite that does not name its release'}; migrating from scratch`,
      );
      await pglite.close();
    } catch (error) {
      // PGlite refuses a tarball over an existing database, PostgreSQL a directory of another major version.
      warn(`PGlite did not start from the snapshot (${message(error)}); starting without it`);
      await pglite.close().catch(() => {});
    }
  }
  const pglite = newPagePGlite(options, dataDir);
  try {
    await pglite.waitReady;
  } catch (error) {
    await pglite.close().catch(() => {});
    throw error;
  }
  if (persistent && snapshot !== undefined) await rememberStore(dataDir);
  return pglite;
}

/** The checked file when the directory is new (`persistentDir` undefined: in memory), else undefined. */
async function fileToLoad(snapshot: SnapshotSource, persistentDir: string | undefined): Promise<SnapshotFile | undefined> {
  if (persistentDir !== undefined && (await knownStore(persistentDir))) {
    if (snapshot instanceof Response) await snapshot.body?.cancel();
    return undefined;
  }
  let blob: Blob;
  try {
    blob = await blobOf(snapshot);
  } catch (error) {
    warn(`cannot read the snapshot (${message(error)}); migrating from scratch`);
    return undefined;
  }
  const checked = await readSnapshotFile(blob);
  if (checked.ok) return checked;
  warn(`not using the snapshot: ${checked.reason}; migrating from scratch`);
  return undefined;
}

async function blobOf(snapshot: SnapshotSource): Promise<Blob> {
  if (snapshot instanceof Blob) return snapshot;
  const response = snapshot instanceof Response ? snapshot : await fetch(snapshot);
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}${response.url ? ` for ${response.url}` : ''}`);
  }
  return response.blob();
}

function warn(text: string): void {
  console.warn(`${WHERE}: ${text}`);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
