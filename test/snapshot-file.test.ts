// The snapshot file of petstore-router/browser (src/snapshot/file.ts): what `petstore-router
// snapshot` writes and what a page checks before loading it. The page itself runs in
// test/browser-store.test.ts; here the format, the key and the command.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeSnapshotFile, readSnapshotFile, snapshotFileKey } from '../src/snapshot/file.js';
import { migrations } from '../src/storage/migrations/index.js';
import { PACKAGE_VERSION } from '../src/version.js';
import { tempDir } from './helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = tempDir('petstore-snapshot-file-');
const TARBALL = new Blob([new Uint8Array(5000).map((_, i) => i % 251)]);

const withProbe = async <T>(body: () => Promise<T>): Promise<T> => {
  migrations['9999-snapshot-file-probe'] = {
    up: async (db: Kysely<any>) => void (await db.schema.createTable('petstore_snapshot_probe').addColumn('id', 'integer').execute()),
  };
  try {
    return await body();
  } finally {
    delete migrations['9999-snapshot-file-probe'];
  }
};

async function bytesOf(blob: Blob): Promise<Buffer> {
  return Buffer.from(await blob.arrayBuffer());
}

/** The file with its header's fields replaced (index: 1 key, 2 package version, 3 PGlite, 4 sha256, 5 length). */
function withField(file: Buffer, index: number, value: string): Blob {
  const end = file.indexOf(0x0a);
  const fields = file.subarray(0, end).toString('latin1').split(' ');
  fields[index] = value;
  return new Blob([fields.join(' '), file.subarray(end) as Uint8Array<ArrayBuffer>]);
}

test('PACKAGE_VERSION is package.json’s version (npm version rewrites it)', () => {
  assert.is(PACKAGE_VERSION, (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.match(pkg.scripts.version!, /sync-version\.mjs/);
});

test('the key changes with a migration, another release of petstore-router or of PGlite', async () => {
  const key = await snapshotFileKey('0.5.16');
  assert.is(await snapshotFileKey('0.5.16'), key);
  assert.is.not(await snapshotFileKey('0.5.17'), key);
  assert.is.not(await snapshotFileKey('0.5.16', '9.9.9'), key);
  assert.is.not(await withProbe(() => snapshotFileKey('0.5.16')), key);
});

test('a file is read back with its tarball and PGlite release, gzipped or not, and gzipped whole by hand', async () => {
  for (const gzip of [false, true]) {
    const file = await encodeSnapshotFile(TARBALL, '0.5.16', gzip);
    const read = await readSnapshotFile(file);
    assert.ok(read.ok, JSON.stringify(read));
    if (!read.ok) continue;
    assert.is(read.pgliteVersion, '0.5.16');
    const tarball = await bytesOf(read.tarball);
    assert.equal(
      gzip ? Buffer.from(await new Response(read.tarball.stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer()) : tarball,
      await bytesOf(TARBALL),
    );
  }
  const whole = gzipSync(await bytesOf(await encodeSnapshotFile(TARBALL, '0.5.16', false)));
  assert.ok((await readSnapshotFile(new Blob([whole]))).ok);
});

test('a stale, foreign or damaged file is refused, saying why', async () => {
  const file = await bytesOf(await encodeSnapshotFile(TARBALL, '0.5.16', false));
  const refusals: [Blob, RegExp][] = [
    [withField(file, 2, '0.0.9'), /made by petstore-router 0\.0\.9/],
    [withField(file, 1, '0'.repeat(64)), /other migrations/],
    // The PGlite release named with a key made for another one.
    [withField(file, 3, '0.5.17'), /other migrations/],
    [withField(file, 0, 'petstore-router-snapshot-file/0'), /not a snapshot file/],
    [new Blob([file.subarray(0, file.length - 1) as Uint8Array<ArrayBuffer>]), /truncated/],
    [new Blob([file.subarray(0, file.length - 10) as Uint8Array<ArrayBuffer>, new Uint8Array(10)]), /sha256/],
    [new Blob(['<!doctype html><title>404</title>']), /not a snapshot file/],
    [new Blob([]), /not a snapshot file/],
  ];
  for (const [blob, reason] of refusals) {
    const read = await readSnapshotFile(blob);
    assert.not.ok(read.ok);
    if (!read.ok) assert.match(read.reason, reason);
  }
  // After a migration is added, a file made before it is stale.
  const stale = await withProbe(() => readSnapshotFile(new Blob([file as Uint8Array<ArrayBuffer>])));
  assert.not.ok(stale.ok);
  if (!stale.ok) assert.match(stale.reason, /other migrations/);
});

function cli(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'adapters/cli.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
}

test('petstore-router snapshot FILE writes a file a page accepts, for the installed PGlite', async () => {
  const out = join(dir, 'petstore.snapshot');
  const run = cli(['snapshot', out]);
  assert.is(run.status, 0, run.stderr);
  assert.match(run.stderr, /wrote .*petstore\.snapshot \(\d+\.\d MB\)/);
  const read = await readSnapshotFile(new Blob([readFileSync(out)]));
  assert.ok(read.ok, JSON.stringify(read));
  const pglite = JSON.parse(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  if (read.ok) assert.is(read.pgliteVersion, pglite.version);
  const raw = join(dir, 'petstore.tar.snapshot');
  assert.is(cli(['snapshot', raw, '--no-gzip']).status, 0);
  assert.ok(readFileSync(out).length * 4 < readFileSync(raw).length, 'gzipped by default, much smaller');
  assert.ok((await readSnapshotFile(new Blob([readFileSync(raw)]))).ok);
});

test('petstore-router snapshot: usage errors exit 2', () => {
  for (const args of [['snapshot'], ['snapshot', 'a', 'b'], ['snapshot', 'a', '--gzip']]) {
    const run = cli(args);
    assert.is(run.status, 2, args.join(' '));
    assert.match(run.stderr, /see petstore-router --help/);
  }
});

test('createBrowserStore refuses a snapshot it cannot use, before PGlite starts', async () => {
  const { ownPGlite } = await import('./helpers/db.js');
  const { createBrowserStore } = await import('../src/browser.js');
  const refusals: [object, RegExp][] = [
    [{ snapshot: 42 }, /options\.snapshot must be the snapshot file's URL/],
    [{ snapshot: '' }, /options\.snapshot must be/],
    [
      { snapshot: '/petstore.snapshot', pglite: { loadDataDir: new Blob([]) } },
      /options\.snapshot must be absent with PGlite's own loadDataDir \(options\.pglite\.loadDataDir\)/,
    ],
  ];
  for (const [options, message] of refusals) {
    try {
      await createBrowserStore({ keys: ['k'], ...(options as Record<string, unknown>) });
      assert.unreachable('accepted');
    } catch (error) {
      assert.instance(error, TypeError);
      assert.match((error as Error).message, message);
    }
  }
  const own = await ownPGlite();
  try {
    await createBrowserStore({ keys: ['k'], pglite: own, snapshot: '/petstore.snapshot' });
    assert.unreachable('accepted');
  } catch (error) {
    assert.match((error as Error).message, /options\.snapshot must be absent with a PGlite of your own \(options\.pglite\)/);
  } finally {
    await own.close();
  }
});

test.run();
