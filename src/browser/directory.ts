// What a browser store's Kysely sees of an idb:// directory held by this tab or shared by tabs: the
// part of PGlite that Kysely's PGlite dialect calls, whichever tab runs the statements.
import type { Kysely } from 'kysely';
import { type PGliteInstance as PGlite, pgliteKysely } from '../drivers/pglite/database.js';

/** The PGlite methods Kysely's dialect uses (`query`, `transaction`, `close` and readiness). */
export interface DirectoryDatabase {
  readonly closed: boolean;
  readonly ready: boolean;
  readonly waitReady: Promise<void>;
  query: PGlite['query'];
  transaction: PGlite['transaction'];
  close(): Promise<void>;
}

/**
 * The PGlite driver's Kysely on a directory handle (it uses only the members above); `db.destroy()`
 * closes the handle, and the directory stays open in the other tabs.
 */
export function directoryKysely<DB>(database: DirectoryDatabase): Kysely<DB> {
  return pgliteKysely<DB>(database as unknown as PGlite, true);
}

/** What a closed handle's statements fail with: the words the store answers as `database_closed`. */
export function closedError(): Error {
  return new Error('PGlite is closed: this browser store was closed (store.close())');
}

/**
 * Calls `hide` when the page is hidden for good or put in the back/forward cache (`pagehide`), and
 * `show` when it comes back from that cache; returns what stops watching. Nothing outside a window.
 */
export function onPageHide(hide: () => void, show: () => void): () => void {
  if (typeof window === 'undefined' || typeof window.addEventListener !== 'function') return () => {};
  const hidden = () => hide();
  const shown = (event: PageTransitionEvent) => {
    if (event.persisted) show();
  };
  window.addEventListener('pagehide', hidden);
  window.addEventListener('pageshow', shown);
  return () => {
    window.removeEventListener('pagehide', hidden);
    window.removeEventListener('pageshow', shown);
  };
}
