// The PGlite driver: instances of ours and Kysely on them.
import { PGlite, types } from '@electric-sql/pglite';
import { Kysely, PGliteDialect } from 'kysely';
import { SNAPSHOT_START_CONF } from './quiet-timers.js';
import { view } from './view.js';

/** A PGlite instance, as callers pass one in. */
export type PGliteInstance = PGlite;

/**
 * @internal Shared with `petstore-router/testing`. Opens the connection now: a broken PGlite
 * fails here rather than at the first query, and Kysely's `destroy()` closes only a driver it has
 * opened (a never-queried PGlite of ours would otherwise stay in memory and keep the process alive).
 */
export async function opened<DB>(db: Kysely<DB>): Promise<Kysely<DB>> {
  await db.connection().execute(async () => {});
  return db;
}

/**
 * @internal Shared with `petstore-router/testing`, not part of the public API. A PGlite of ours,
 * in memory, in `dataDir`, or started from a `dumpDataDir()` tarball; `postgresqlconf`: lines
 * PGlite adds to its postgresql.conf.
 */
export function newPGlite(options: {
  dataDir?: string | undefined;
  loadDataDir?: Blob | File | undefined;
  postgresqlconf?: string[];
  initDbStartParams?: string[];
}): PGlite {
  // int8 as bigint on instances we create, so ids past 2^53 are exact end to end. One options
  // object: PGlite 0.5 ignores the second argument when the first is not a string, so
  // `new PGlite(undefined, { parsers })` would silently drop the parser.
  const parsers = { [types.INT8]: (v: string) => BigInt(v) };
  const conf = options.loadDataDir ? [...SNAPSHOT_START_CONF, ...(options.postgresqlconf ?? [])] : options.postgresqlconf;
  const { dataDir, loadDataDir, initDbStartParams } = options;
  return new PGlite({ dataDir, loadDataDir, postgresqlconf: conf, initDbStartParams, parsers });
}

/**
 * @internal Shared with `petstore-router/testing`, not part of the public API. Kysely on a
 * PGlite; `db.destroy()` closes the PGlite only when `owned`.
 */
export function pgliteKysely<DB>(pglite: PGlite, owned: boolean): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PGliteDialect({ pglite: view(pglite, owned) }) });
}
