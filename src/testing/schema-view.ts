// A test store's own Kysely on the shared PGlite (schema-pool.ts): its statements are qualified
// with its schema (WithSchemaPlugin), and once closed it answers nothing, so a late query of a
// finished test can never reach the schema after it is handed to another store.
import type { QueryOptions } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, WithSchemaPlugin } from 'kysely';
import type { Database } from '../storage/database.js';
import { ownStatement } from '../drivers/own-statements.js';
import type { SchemaLease } from './schema-pool.js';

/**
 * Kysely bound to the lease's schema. `db.destroy()` releases the lease (the shared PGlite stays
 * open). Kysely's PGlite dialect runs transactions in PGlite's exclusive transaction mode, so the
 * statements of other stores on the same instance wait and never land inside this store's
 * transaction.
 */
export function schemaKysely(lease: SchemaLease): Kysely<Database> {
  const { pglite } = lease;
  let closed = false;
  const open = () => {
    if (closed) throw new Error(`petstore-router: this test store is closed (schema ${lease.schema})`);
  };
  const view = {
    get closed() {
      return closed || pglite.closed;
    },
    get ready() {
      return pglite.ready;
    },
    get waitReady() {
      return pglite.waitReady;
    },
    query: (async (text: string, params?: unknown[], options?: QueryOptions) => {
      open();
      // As the PGlite driver view (drivers/pglite/view.ts): the store's own statements get array rows.
      return pglite.query(text, params, ownStatement(text) === undefined ? options : { ...options, rowMode: 'array' });
    }) as typeof pglite.query,
    transaction: (async (callback) => {
      open();
      return pglite.transaction(callback);
    }) as typeof pglite.transaction,
    close: async () => {
      closed = true;
      await lease.release();
    },
  };
  return new Kysely<Database>({ dialect: new PGliteDialect({ pglite: view }), plugins: [new WithSchemaPlugin(lease.schema)] });
}
