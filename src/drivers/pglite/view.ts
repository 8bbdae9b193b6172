import type { PGlite } from '@electric-sql/pglite';

/**
 * What Kysely's dialect sees of a PGlite: every query goes through as sent, and `close()` closes
 * only a PGlite we own (`db.destroy()` leaves a caller's open).
 */
export function view(pglite: PGlite, owned: boolean) {
  return {
    get closed() {
      return pglite.closed;
    },
    get ready() {
      return pglite.ready;
    },
    get waitReady() {
      return pglite.waitReady;
    },
    query: pglite.query.bind(pglite),
    transaction: pglite.transaction.bind(pglite),
    close: owned ? () => pglite.close() : async () => {},
  };
}
