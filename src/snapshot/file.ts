// The snapshot file of `petstore-router/browser`: the pre-migrated PGlite data directory
// (snapshot.ts) as a file a page can fetch, with a header line that says what made it, so a page
// never loads a snapshot of other migrations, another release of this package or another PGlite.
// Browser-safe (no node:*): the page reads it with this module; `petstore-router snapshot` writes it.
import { migrations } from '../storage/migrations/index.js';
import { migrationsText } from '../storage/migrations-text.js';
import { PACKAGE_VERSION } from '../version.js';

/** Bumped when the file's layout changes: a file of another format is never loaded. */
const FORMAT = 'petstore-router-snapshot-file/1';
/** The header line is short; a longer first line is not ours. */
const HEADER_MAX = 1024;

/** A file that passed every check: the tarball to give PGlite (`loadDataDir`) and what made it. */
export interface SnapshotFile {
  ok: true;
  /** PGlite's `dumpDataDir()` tarball, uncompressed or gzip (PGlite's `loadDataDir` takes both). */
  tarball: Blob;
  /** The PGlite release that made it, as PostgreSQL's `version()` names it (`0.5.16`). */
  pgliteVersion: string;
}

/** Why a file is not loaded. */
export interface RefusedSnapshotFile {
  ok: false;
  reason: string;
}

/**
 * @internal sha256 (hex) of the format, this package's version, the PGlite release, every
 * migration's name and the SQL text the migrations send: another release of either package, or a
 * changed or added migration, gives another key.
 */
export async function snapshotFileKey(pgliteVersion: string, packageVersion = PACKAGE_VERSION): Promise<string> {
  const text = [
    FORMAT,
    `petstore-router ${packageVersion}`,
    `@electric-sql/pglite ${pgliteVersion}`,
    ...Object.keys(migrations).sort(),
    await migrationsText('snapshot_key'),
  ].join('\n');
  return sha256(new TextEncoder().encode(text));
}

/**
 * @internal The file: one header line (`FORMAT key packageVersion pgliteVersion sha256 length`),
 * then the tarball, gzipped when `gzip` (about 4.5 MB instead of 40 MB, slower to load).
 */
export async function encodeSnapshotFile(tarball: Blob, pgliteVersion: string, gzip: boolean): Promise<Blob> {
  if (!/^[\w.+-]+$/.test(pgliteVersion)) throw new Error(`petstore-router: not a PGlite version: ${pgliteVersion}`);
  const payload = new Uint8Array(await (gzip ? await gzipped(tarball) : tarball).arrayBuffer());
  const key = await snapshotFileKey(pgliteVersion);
  const header = `${FORMAT} ${key} ${PACKAGE_VERSION} ${pgliteVersion} ${await sha256(payload)} ${payload.length}\n`;
  return new Blob([header, payload]);
}

/**
 * @internal Checks a snapshot file against this code: format, this package's version, the key of
 * this code's migrations for the PGlite release the file names, length and sha256 of the payload.
 * The PGlite release itself can only be checked once PGlite runs (the caller compares it with
 * `pgliteVersion`). A whole file gzipped by hand (first bytes 1f 8b) is unzipped first.
 */
export async function readSnapshotFile(file: Blob): Promise<SnapshotFile | RefusedSnapshotFile> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  if (head[0] === 0x1f && head[1] === 0x8b) file = await blobOf(file.stream().pipeThrough(new DecompressionStream('gzip')));
  const first = new Uint8Array(await file.slice(0, HEADER_MAX).arrayBuffer());
  const end = first.indexOf(0x0a);
  const [format, key, packageVersion, pgliteVersion, sum, length] = new TextDecoder()
    .decode(first.subarray(0, Math.max(end, 0)))
    .split(' ');
  if (end < 0 || format !== FORMAT || !key || !pgliteVersion || !sum || !length) {
    return refused(`not a snapshot file of this format (${FORMAT}): make it with \`petstore-router snapshot <file>\``);
  }
  if (packageVersion !== PACKAGE_VERSION) {
    return refused(`made by petstore-router ${packageVersion}, this page runs ${PACKAGE_VERSION}: make it again`);
  }
  if (key !== (await snapshotFileKey(pgliteVersion))) {
    return refused(`made from other migrations than this page's (key ${key.slice(0, 12)}…): make it again`);
  }
  const tarball = file.slice(end + 1);
  if (tarball.size !== Number(length)) return refused(`truncated: ${tarball.size} of ${length} bytes`);
  if ((await sha256(new Uint8Array(await tarball.arrayBuffer()))) !== sum) return refused('its sha256 does not match its header');
  return { ok: true, tarball, pgliteVersion };
}

function refused(reason: string): RefusedSnapshotFile {
  return { ok: false, reason };
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function gzipped(blob: Blob): Promise<Blob> {
  return blobOf(blob.stream().pipeThrough(new CompressionStream('gzip')));
}

async function blobOf(stream: ReadableStream<Uint8Array>): Promise<Blob> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value as Uint8Array<ArrayBuffer>);
  return new Blob(parts);
}
