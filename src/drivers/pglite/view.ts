import type { PGlite, QueryOptions } from '@electric-sql/pglite';
import { ownStatement } from '../own-statements.js';

/**
 * What Kysely's dialect sees of a PGlite: the store's own statements (drivers/own-statements.ts)
 * get rows as arrays through PGlite's documented `rowMode` query option, every other query goes
 * through as sent, and `close()` closes only a PGlite we own (`db.destroy()` leaves a caller's
 * open). Transactions are PGlite's own; their statements get object rows, which the repositories
 * accept too.
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
    query: ((text: string, params?: unknown[], options?: QueryOptions) =>
      pglite.query(text, params, ownStatement(text) === undefined ? options : { ...options, rowMode: 'array' })) as PGlite['query'],
    transaction: pglite.transaction.bind(pglite),
    close: owned ? () => pglite.close() : async () => {},
  };
}
