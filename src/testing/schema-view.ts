// A test store's own Kysely on the shared PGlite (schema-pool.ts): its statements are qualified
// with its schema (WithSchemaPlugin), and once closed it answers nothing, so a late query of a
// finished test can never reach the schema after it is handed to another store.
import { Kysely, PGliteDialect, WithSchemaPlugin } from 'kysely';
import { view } from '../drivers/pglite/view.js';
import type { Database } from '../storage/database.js';
import type { SchemaLease } from './schema-pool.js';

/**
 * Kysely bound to the lease's schema. `db.destroy()` releases the lease (the shared PGlite stays
 * open). Kysely's PGlite dialect runs transactions in PGlite's exclusive transaction mode, so the
 * statements of other stores on the same instance wait and never land inside this store's
 * transaction. Queries go through the driver's own view (the store's statements get array rows
 * there), guarded so a closed store answers nothing.
 */
export function schemaKysely(lease: SchemaLease): Kysely<Database> {
  const { pglite } = lease;
  let closed = false;
  const open = () => {
    if (closed) throw new Error(`petstore-router: this test store is closed (schema ${lease.schema})`);
  };
  const shared = view(pglite, false);
  const guarded = {
    get closed() {
      return closed || shared.closed;
    },
    get ready() {
      return shared.ready;
    },
    get waitReady() {
      return shared.waitReady;
    },
    query: (async (...args: Parameters<typeof shared.query>) => {
      open();
      return shared.query(...args);
    }) as typeof shared.query,
    transaction: (async (callback: Parameters<typeof shared.transaction>[0]) => {
      open();
      return shared.transaction(callback);
    }) as typeof shared.transaction,
    close: async () => {
      closed = true;
      await lease.release();
    },
  };
  return new Kysely<Database>({ dialect: new PGliteDialect({ pglite: guarded }), plugins: [new WithSchemaPlugin(lease.schema)] });
}
