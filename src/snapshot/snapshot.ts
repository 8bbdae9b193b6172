// A pre-migrated PGlite data directory as a tarball (PGlite's documented `dumpDataDir()` /
// `loadDataDir`): starting from it skips initdb and every migration. Browser-safe (no node:*):
// `petstore-router/browser` may reuse it; the per-machine cache of Node is cache.ts.
import { newPGlite, pgliteKysely } from '../drivers/pglite/database.js';
import { migrate } from '../storage/migrate.js';
import { migrations } from '../storage/migrations/index.js';
import { migrationsText } from '../storage/migrations-text.js';

/** Bumped when the way a snapshot is made changes (e.g. its compression), so older files never load. */
const SNAPSHOT_FORMAT = 'petstore-router-snapshot/3';

/**
 * @internal Boots a fresh in-memory PGlite (initdb), applies our migrations (bookkeeping included,
 * so a later `migrate()` finds nothing to do) and returns its data directory as an uncompressed
 * tarball: a PGlite given it as `loadDataDir` is migrated at once. Uncompressed because it loads
 * faster than gzip (docs/testing.md). A checkpoint first, so a start from it replays little WAL. Costs one initdb: make it once and keep it (cache.ts).
 */
export async function migratedSnapshot(): Promise<Blob> {
  const pglite = newPGlite({ initDbStartParams: ['--wal-segsize=1'] }); // 1 MiB WAL segments: the default 16 MiB one would be much of the dump
  try {
    await migrate(pgliteKysely(pglite, false));
    await pglite.exec('checkpoint'); // less WAL to replay when a PGlite starts from the dump
    return await pglite.dumpDataDir('none');
  } finally {
    await pglite.close(); // also clears PGlite's timers (upstream issue 925)
  }
}

/** What a snapshot is made of: a snapshot made from other inputs must never be loaded. */
export interface SnapshotInputs {
  /** petstore-router's version. */
  packageVersion: string;
  /** `@electric-sql/pglite`'s version: its data directory layout may change between versions. */
  pgliteVersion: string;
}

/**
 * @internal The identity of the snapshot these inputs and this code's migrations make: sha256 (hex)
 * of the format, both versions, every migration's name and the SQL text the migrations send.
 * A changed migration, an added one, another PGlite or another release gives another key.
 */
export async function snapshotKey(inputs: SnapshotInputs): Promise<string> {
  const text = [
    SNAPSHOT_FORMAT,
    `petstore-router ${inputs.packageVersion}`,
    `@electric-sql/pglite ${inputs.pgliteVersion}`,
    ...Object.keys(migrations).sort(),
    await migrationsText('snapshot_key'),
  ].join('\n');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
