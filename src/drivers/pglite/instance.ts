// A PGlite instance of ours (Kysely on it: database.ts).
import { PGlite, types } from '@electric-sql/pglite';
import { SNAPSHOT_START_CONF } from './quiet-timers.js';

/** A PGlite instance, as callers pass one in. */
export type PGliteInstance = PGlite;

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
  /** PGlite's WebAssembly, compiled already (wasm.ts); PGlite compiles its own when absent. */
  pgliteWasmModule?: WebAssembly.Module | undefined;
}): PGlite {
  // int8 as bigint on instances we create, so ids past 2^53 are exact end to end. One options
  // object: PGlite 0.5 ignores the second argument when the first is not a string, so
  // `new PGlite(undefined, { parsers })` would silently drop the parser.
  const parsers = { [types.INT8]: (v: string) => BigInt(v) };
  const conf = options.loadDataDir ? [...SNAPSHOT_START_CONF, ...(options.postgresqlconf ?? [])] : options.postgresqlconf;
  const { dataDir, loadDataDir, initDbStartParams, pgliteWasmModule } = options;
  return new PGlite({ dataDir, loadDataDir, postgresqlconf: conf, initDbStartParams, pgliteWasmModule, parsers });
}
