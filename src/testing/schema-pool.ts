// The shared PGlite of `petstore-router/testing`: one instance per process (initdb once), one
// migrated schema per live test store, emptied and kept for reuse after `close()`. See docs/testing.md
// ("How a test store is made") for why a schema per store and not a PGlite per store.
import type { PGlite } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import { newPGlite, opened, pgliteKysely } from '../drivers/pglite/database.js';
import { quietTimers } from '../drivers/pglite/quiet-timers.js';
import { pgliteWasmModule } from '../drivers/pglite/wasm.js';
import { cachedSnapshot } from '../snapshot/cache.js';
import type { Database } from '../storage/database.js';
import { migrationsText } from '../storage/migrations-text.js';
import { resetDatabase } from '../storage/reset.js';
import { FIRST_SCHEMA, testSnapshot } from './snapshot.js';

/**
 * WAL of the shared instance: at most 32 MB of segments kept, and a checkpoint every this many
 * `close()`s. PGlite keeps its WAL in memory and, running as a single-user backend, never
 * checkpoints on its own; each close's TRUNCATE writes WAL, so without this a long suite gained
 * WAL (and RSS) without bound (docs/testing.md).
 */
const WAL_CONF = ['max_wal_size = 32MB', 'min_wal_size = 32MB'];
export const CHECKPOINT_EVERY = 256;

/**
 * postgresql.conf of the shared instance: the WAL bound above, and 16 MB of shared buffers instead
 * of PostgreSQL's 128 MB. PGlite's data is in memory already, so the buffers only save a copy; 128 MB
 * were zeroed at every start (about 0.1 s of the first store) and held for the life of the process
 * (docs/testing.md).
 */
const SHARED_CONF = [...WAL_CONF, 'shared_buffers = 16MB'];

interface Instance {
  pglite: PGlite;
  /** Our own Kysely on the instance, for migrations and resets (never handed out). */
  admin: Kysely<Database>;
  /**
   * Migrated, empty schemas, ready for a store: every closed store's schema, never dropped.
   * Dropping one gives no memory back (PGlite's WASM memory never shrinks, and the dropped
   * catalog rows stay as dead rows: each burst of new schemas then grew RSS again), while a kept
   * one is a lease for the next store instead of a new build (docs/testing.md).
   */
  free: string[];
  /** Schemas made so far: names are never reused within a process. */
  made: number;
  /** `close()`s so far, for {@link CHECKPOINT_EVERY}. */
  closes: number;
}

let instance: Promise<Instance> | undefined;

/** The process's shared PGlite, created on first use. A failure is not cached. */
function shared(): Promise<Instance> {
  instance ??= (async () => {
    // From the test stores' snapshot (testing/snapshot.ts): no initdb, the first schema built.
    const wasm = pgliteWasmModule(); // compiles while the snapshot is read and checked
    const snapshot = await cachedSnapshot(testSnapshot);
    const pglite = newPGlite({ postgresqlconf: SHARED_CONF, loadDataDir: snapshot, pgliteWasmModule: await wasm });
    // Not owned: `admin.destroy()` is never called; the instance lives as long as the process.
    // Each `close()` leaves it without a pending timer (giveBack), so it never keeps Node alive.
    const admin = await opened(pgliteKysely<Database>(pglite, false));
    if (snapshot === undefined) return { pglite, admin, free: [], made: 0, closes: 0 };
    return { pglite, admin, free: [FIRST_SCHEMA], made: 1, closes: 0 };
  })().catch((error: unknown) => {
    instance = undefined;
    throw error;
  });
  return instance;
}

/** A migrated, empty schema of the shared PGlite, for one store until `release()`. */
export interface SchemaLease {
  readonly pglite: PGlite;
  readonly schema: string;
  /** Empties the schema and keeps it for a next store. Idempotent. */
  release(): Promise<void>;
}

/** Takes a free schema, or makes a new one (see {@link buildSchema}). */
export async function leaseSchema(): Promise<SchemaLease> {
  const shared_ = await shared();
  let schema = shared_.free.pop();
  if (schema === undefined) {
    schema = `petstore_test_${++shared_.made}`;
    await buildSchema(shared_.pglite, schema);
  }
  const name = schema;
  let released: Promise<void> | undefined;
  return {
    pglite: shared_.pglite,
    schema: name,
    release: () => (released ??= giveBack(shared_, name)),
  };
}

/**
 * Creates `schema` with our tables in one round trip: the text of every migration's statements
 * (storage/migrations-text.ts), run as one implicit transaction by PGlite's multi-statement `exec`.
 * The tables of `migrate(db, { schema })` (test/test-stores.test.ts compares the two catalogs),
 * without Kysely's Migrator, whose bookkeeping lists every table of the database on each run and
 * so grows slower with every live store, and without one round trip per statement
 * (docs/testing.md). A test schema is never migrated again (each process builds its own), so it
 * keeps no bookkeeping. Replacing this with `migrate(db, { schema })` is the plain path.
 */
export async function buildSchema(pglite: PGlite, schema: string): Promise<void> {
  await pglite.exec(await migrationsText(schema));
}

/** How many schemas are free for reuse (for tests of this module). */
export async function freeSchemaCount(): Promise<number> {
  return (await shared()).free.length;
}

async function giveBack(shared_: Instance, schema: string): Promise<void> {
  // TRUNCATE ... RESTART IDENTITY: no rows, ids from 1, the tables' storage freed.
  await resetDatabase(shared_.admin, schema);
  shared_.free.push(schema);
  // Recycles the WAL segments before the checkpoint (the memory they hold is reused, not grown).
  if (++shared_.closes % CHECKPOINT_EVERY === 0) await shared_.pglite.exec('checkpoint');
  // The process exits as soon as its last store is closed, not 10 s later (quiet-timers.ts).
  await quietTimers(shared_.pglite);
}
