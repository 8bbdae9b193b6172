// PGlite in a web page (or a Web Worker), for `petstore-router/browser`: made with the caller's own
// PGlite options and nothing of Node's, and what the snapshot file needs to know of a running PGlite.
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/** PGlite's own options for an instance made for a page (its data directory is given apart). */
export type PagePGliteOptions = Omit<PGliteOptions, 'dataDir'>;

/** Whether `value` is a PGlite (of the copy of PGlite this bundle holds). */
export function isPGlite(value: unknown): value is PGlite {
  return value instanceof PGlite;
}

/**
 * WAL segments of 1 MB for a directory made here (PostgreSQL's default: 16 MB): PGlite writes a
 * changed file whole to IndexedDB after each statement, so every write stored the 16 MB segment.
 */
const PAGE_INITDB = ['--wal-segsize=1'];

/** A new PGlite in `dataDir` (undefined: in memory), started from `loadDataDir` when given. */
export function newPagePGlite(options: PagePGliteOptions | undefined, dataDir: string | undefined, loadDataDir?: Blob): PGlite {
  const initDbStartParams = options?.initDbStartParams ?? PAGE_INITDB;
  return new PGlite({ ...options, dataDir, initDbStartParams, ...(loadDataDir ? { loadDataDir } : {}) });
}

/**
 * The PGlite release `pglite` runs, as PostgreSQL's `version()` names it ("PostgreSQL 18.6 (PGlite
 * 0.5.16) on wasm32…"), or undefined when it does not name one. A page cannot read PGlite's
 * package.json: this is how it learns which PGlite it bundled.
 */
export async function pgliteRelease(pglite: Pick<PGlite, 'query'>): Promise<string | undefined> {
  const { rows } = await pglite.query<{ version: string }>('select version() as version');
  return /\(PGlite ([\w.+-]+)\)/.exec(rows[0]?.version ?? '')?.[1];
}
