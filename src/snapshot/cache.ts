// The per-machine cache of the pre-migrated snapshot (snapshot.ts), for Node, Deno and Bun: made
// once, then every in-memory database and every new data directory starts from it instead of
// initdb + migrations. Where it lives and how to clear it: docs/testing.md ("The snapshot cache").
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, openAsBlob, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { holdsDatabase } from './data-dir.js';
import { migratedSnapshot, snapshotKey } from './snapshot.js';

/** `PETSTORE_SNAPSHOT_CACHE`: a directory to keep the snapshot in, or `off` to boot from scratch. */
export const CACHE_ENV = 'PETSTORE_SNAPSHOT_CACHE';
const MAGIC = 'petstore-router-snapshot';

/**
 * @internal The snapshot a new PGlite of ours starts from, or undefined to boot it from scratch:
 * `given`, else the cached one; for `dataDir` only when that directory holds no database yet (an
 * existing one is opened as it is).
 */
export async function startingSnapshot(dataDir: string | undefined, given?: Blob): Promise<Blob | undefined> {
  if (dataDir !== undefined && holdsDatabase(dataDir)) return undefined;
  return given ?? cachedSnapshot();
}

/** Snapshots this process made (not read from a file), by file: each is made once per process. */
const made = new Map<string, { key: string; blob: Promise<Blob> }>();

/**
 * A snapshot made from the migrated one for one use (the test stores' shared PGlite,
 * src/testing/snapshot.ts), cached beside it under its own name and a key derived from the
 * migrated snapshot's and `version`: it is made again whenever the migrated one would be.
 */
export interface SnapshotVariant {
  /** Lowercase letters: the file is `pglite-<name>-<key>.snapshot`. */
  name: string;
  /** Changed when `make` changes, so an older file is never loaded. */
  version: string;
  make(migrated: Blob): Promise<Blob>;
}

/**
 * @internal The snapshot of this code's migrations (or its `variant`): read from the cache file
 * when its key and checksum are right (each call reads and checks the file again: it is backed by
 * the file, see readSnapshot), else made (one initdb) and written with a temp file, so processes
 * starting at once never read a half-written file. Undefined when the cache is switched off.
 */
export async function cachedSnapshot(variant?: SnapshotVariant): Promise<Blob | undefined> {
  const dir = cacheDir();
  if (dir === undefined) return undefined;
  const key = await snapshotKey({ packageVersion: versionOf('petstore-router', import.meta.url), pgliteVersion: pgliteVersion() });
  if (variant === undefined) return cached(dir, 'pglite', key, migratedSnapshot);
  const derived = createHash('sha256').update(`${key}\n${variant.name}\n${variant.version}`).digest('hex');
  return cached(dir, `pglite-${variant.name}`, derived, async () => variant.make((await cachedSnapshot())!));
}

/** `prefix-<key>.snapshot` of `dir` when whole, else `make()`'s, written there. */
async function cached(dir: string, prefix: string, key: string, make: () => Promise<Blob>): Promise<Blob> {
  const file = join(dir, `${prefix}-${key.slice(0, 16)}.snapshot`);
  const read = await readSnapshot(file, key);
  if (read) return read;
  let entry = made.get(file);
  if (entry?.key !== key) {
    const blob = (async () => {
      const snapshot = await make();
      writeSnapshot(dir, file, key, new Uint8Array(await snapshot.arrayBuffer()), prefix);
      return snapshot;
    })();
    entry = { key, blob };
    made.set(file, entry);
    blob.catch(() => made.delete(file)); // a failure is not kept
  }
  return entry.blob;
}

/**
 * The file's payload when its header names this key and the payload's sha256 matches; else
 * undefined. Given as a Blob backed by the file (Node's `openAsBlob`): PGlite keeps the Blob it
 * started from for the life of the instance, which for an in-memory Blob is 30 MB more RSS (the
 * exit after the last close() is the same either way, test/clean-exit.test.ts). A valid file is
 * never replaced (writeSnapshot), so the file-backed Blob stays readable.
 */
export async function readSnapshot(file: string, key: string): Promise<Blob | undefined> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const end = bytes.indexOf(0x0a);
  const [magic, fileKey, sum, length] = bytes.subarray(0, Math.max(end, 0)).toString('latin1').split(' ');
  const payload = bytes.subarray(end + 1);
  if (end < 0 || magic !== MAGIC || fileKey !== key || Number(length) !== payload.length) return undefined;
  if (createHash('sha256').update(payload).digest('hex') !== sum) return undefined;
  try {
    const blob = (await openAsBlob(file)).slice(end + 1);
    if (blob.size === payload.length) return blob;
  } catch {
    // a runtime without openAsBlob: the bytes read above
  }
  return new Blob([payload as Uint8Array<ArrayBuffer>]);
}

function writeSnapshot(dir: string, file: string, key: string, payload: Uint8Array, prefix: string): void {
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    const sum = createHash('sha256').update(payload).digest('hex');
    writeFileSync(temp, Buffer.concat([Buffer.from(`${MAGIC} ${key} ${sum} ${payload.length}\n`, 'latin1'), payload]));
    // A valid file is never replaced (readers may hold a Blob backed by it): link() creates the
    // name only if it is free; where it fails (the name taken, or no hard links on this file
    // system), anything but a valid file in its place is replaced by an atomic rename.
    try {
      linkSync(temp, file);
    } catch {
      if (!isValid(file, key)) renameSync(temp, file);
    }
    rmSync(temp, { force: true });
    for (const name of readdirSync(dir)) {
      // Snapshots of other keys (older migrations or versions) are never loaded again.
      if (new RegExp(`^${prefix}-[0-9a-f]{16}\\.snapshot$`).test(name) && join(dir, name) !== file)
        rmSync(join(dir, name), { force: true });
    }
  } catch {
    // A cache we cannot write (read-only disk, Deno without --allow-write): boot from the snapshot
    // in memory anyway; removing the temp file may be refused for the same reason.
    try {
      rmSync(temp, { force: true });
    } catch {
      // nothing was written
    }
  }
}

/** Whether `file` holds a whole snapshot of `key` (header and checksum), without keeping it. */
function isValid(file: string, key: string): boolean {
  try {
    const bytes = readFileSync(file);
    const end = bytes.indexOf(0x0a);
    const [magic, fileKey, sum] = bytes.subarray(0, Math.max(end, 0)).toString('latin1').split(' ');
    return (
      end > 0 &&
      magic === MAGIC &&
      fileKey === key &&
      createHash('sha256')
        .update(bytes.subarray(end + 1))
        .digest('hex') === sum
    );
  } catch {
    return false;
  }
}

/**
 * `PETSTORE_SNAPSHOT_CACHE` when set (`off`, `0` or `false`: no cache); else `node_modules/.cache/petstore-router`
 * of the working directory when it has a node_modules (the place Babel, ESLint and AVA use), else
 * the system's temporary directory.
 */
export function cacheDir(): string | undefined {
  const set = process.env[CACHE_ENV];
  if (set !== undefined && set !== '') return /^(off|0|false)$/i.test(set) ? undefined : set;
  const modules = join(process.cwd(), 'node_modules');
  return existsSync(modules) ? join(modules, '.cache', 'petstore-router') : join(tmpdir(), 'petstore-router-cache');
}

/** The version in the package.json of `name` at or above `from` (a file URL or path). */
function versionOf(name: string, from: string): string {
  let dir = dirname(from.startsWith('file:') ? fileURLToPath(from) : from);
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name && pkg.version) return pkg.version;
    } catch {
      // no package.json here
    }
    if (dirname(dir) === dir) return 'unknown';
    dir = dirname(dir);
  }
}

function pgliteVersion(): string {
  try {
    return versionOf('@electric-sql/pglite', createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  } catch {
    return 'unknown';
  }
}
