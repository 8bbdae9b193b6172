// `petstore-router/pglite`: embedded PostgreSQL (WASM) for tests, demos and the standalone server.
import { PGlite, types } from '@electric-sql/pglite';
import { Kysely, PGliteDialect } from 'kysely';
import type { Database } from '../../storage/database.js';
import { migrateOrDestroy } from '../../storage/migrate.js';
import { migrationsCurrent } from '../../storage/migrations-current.js';
import { SNAPSHOT_START_CONF } from './quiet-timers.js';
import { view } from './view.js';

/** Options of {@link createPGliteDatabase}. */
export interface PGliteDatabaseOptions {
  /** Keep data in this directory (created if missing). Omit for an in-memory database. */
  dataDir?: string;
  /**
   * Use this PGlite instance instead of creating one. It stays yours: `db.destroy()` will not
   * close it; call `pglite.close()` yourself when done.
   */
  pglite?: PGlite;
  /**
   * Apply petstore-router's migrations before returning.
   * @default true
   */
  migrate?: boolean;
  /**
   * @internal Where a new database of ours starts from when migrating: a tarball of
   * `migratedSnapshot()` (drivers/pglite/snapshot.ts), `false` for initdb + migrations, omitted for
   * the per-machine cache (snapshot-cache.ts). Ignored for an existing `dataDir` and with `pglite`.
   */
  snapshot?: Blob | false;
}

/**
 * A Kysely database on PGlite, migrated. PGlite has one connection: Kysely's built-in dialect
 * serialises access to it, so concurrent requests never share a transaction.
 *
 * Ownership: a PGlite created here is closed by `db.destroy()`; one you pass in is not.
 *
 * @example
 * ```ts
 * import { createPGliteDatabase } from 'petstore-router/pglite'
 * const db = await createPGliteDatabase()                      // in memory
 * const disk = await createPGliteDatabase({ dataDir: './data' }) // persistent
 * ```
 */
export async function createPGliteDatabase(options: PGliteDatabaseOptions = {}): Promise<Kysely<Database>> {
  if (options.pglite && options.dataDir !== undefined) {
    throw new TypeError('petstore-router: pass either pglite or dataDir to createPGliteDatabase, not both');
  }
  if (options.pglite) {
    const db = pgliteKysely(options.pglite, false);
    return options.migrate === false ? opened(db) : migrateOrDestroy(db);
  }
  const snapshot = options.migrate === false ? undefined : await snapshotFor(options);
  const db = pgliteKysely(newPGlite({ dataDir: options.dataDir, loadDataDir: snapshot }), true);
  // A snapshot, or a data directory opened again, is normally migrated already: one select says so.
  return options.migrate === false ? opened(db) : (await migrationsCurrent(db)) ? opened(db) : migrateOrDestroy(db);
}

/** The snapshot a new database starts from (snapshot.ts), loaded only when none is given. */
async function snapshotFor(options: PGliteDatabaseOptions): Promise<Blob | undefined> {
  if (options.snapshot === false) return undefined;
  if (options.dataDir === undefined && options.snapshot !== undefined) return options.snapshot;
  const { startingSnapshot } = await import('./snapshot-cache.js');
  return startingSnapshot(options.dataDir, options.snapshot);
}

/**
 * @internal Shared with `petstore-router/testing`. Opens the connection now: a broken PGlite
 * fails here rather than at the first query, and Kysely's `destroy()` closes only a driver it has
 * opened (a never-queried PGlite of ours would otherwise stay in memory and keep the process alive).
 */
export async function opened(db: Kysely<Database>): Promise<Kysely<Database>> {
  await db.connection().execute(async () => {});
  return db;
}

/**
 * @internal Shared with `petstore-router/testing`, not part of the public API. A PGlite of ours,
 * in memory, in `dataDir`, or started from a `dumpDataDir()` tarball; `postgresqlconf`: lines
 * PGlite adds to its postgresql.conf.
 */
export function newPGlite(options: { dataDir?: string | undefined; loadDataDir?: Blob | File; postgresqlconf?: string[] }): PGlite {
  // int8 as bigint on instances we create, so ids past 2^53 are exact end to end. One options
  // object: PGlite 0.5 ignores the second argument when the first is not a string, so
  // `new PGlite(undefined, { parsers })` would silently drop the parser.
  const parsers = { [types.INT8]: (v: string) => BigInt(v) };
  const conf = options.loadDataDir ? [...SNAPSHOT_START_CONF, ...(options.postgresqlconf ?? [])] : options.postgresqlconf;
  return new PGlite({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, postgresqlconf: conf, parsers });
}

/**
 * @internal Shared with `petstore-router/testing`, not part of the public API. Kysely on a
 * PGlite; `db.destroy()` closes the PGlite only when `owned`.
 */
export function pgliteKysely(pglite: PGlite, owned: boolean): Kysely<Database> {
  return new Kysely<Database>({ dialect: new PGliteDialect({ pglite: view(pglite, owned) }) });
}
