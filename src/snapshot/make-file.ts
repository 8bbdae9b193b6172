// Node side of the browser's snapshot file (file.ts): `petstore-router snapshot <file>` and
// `browserSnapshot()` of `petstore-router/pglite` make it from the pre-migrated snapshot of this
// machine's cache (cache.ts), or from a fresh one when the cache is off.
// Only PGlite's modules here: `petstore-router/pglite` re-exports this, and its import loads no
// Kysely (src/pglite.ts); the snapshot code that does is loaded when a file is made.
import { newPGlite } from '../drivers/pglite/instance.js';
import { pgliteRelease } from '../drivers/pglite/page.js';

/** Options of {@link browserSnapshot}. */
export interface BrowserSnapshotOptions {
  /**
   * Gzip the data directory: about 4.5 MB instead of 30 to 40 MB. A page reads and checks the gzip file
   * sooner than the uncompressed one (PGlite unzips it natively), so `false` is only for a host that
   * compresses on the fly or a tool that wants the tarball as it is.
   * @default true
   */
  gzip?: boolean;
}

/**
 * The snapshot file that `createBrowserStore({ snapshot })` of `petstore-router/browser` loads: a
 * PGlite data directory with every migration applied, for this release of petstore-router and the
 * installed PGlite (a page running another PGlite does not use it). Serve it as a static file.
 *
 * @example
 * ```ts
 * import { browserSnapshot } from 'petstore-router/pglite'
 * // in a build script, with writeFile of node:fs/promises:
 * await writeFile('public/petstore.snapshot', await browserSnapshot())
 * ```
 */
export async function browserSnapshot(options: BrowserSnapshotOptions = {}): Promise<Uint8Array> {
  const [{ cachedSnapshot }, { migratedSnapshot }, { encodeSnapshotFile }] = await Promise.all([
    import('./cache.js'),
    import('./snapshot.js'),
    import('./file.js'),
  ]);
  const tarball = (await cachedSnapshot()) ?? (await migratedSnapshot());
  // Started once from the tarball: it must start, and the page compares the release it names.
  const pglite = newPGlite({ loadDataDir: tarball });
  let release: string | undefined;
  try {
    release = await pgliteRelease(pglite);
  } finally {
    await pglite.close();
  }
  if (release === undefined) {
    throw new Error(
      'petstore-router: this PGlite does not name its release in version() (PGlite 0.5 does); a page could not check the snapshot',
    );
  }
  return new Uint8Array(await (await encodeSnapshotFile(tarball, release, options.gzip !== false)).arrayBuffer());
}
