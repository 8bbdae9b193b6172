import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PGlite } from '@electric-sql/pglite';
import { CHROMIUM, HAS_CHROMIUM, launchChromium } from './helpers/chromium.js';
import { createPetStore } from '../src/index.js';
import { browserSnapshot, createPGliteDatabase } from '../src/pglite.js';
import { encodeSnapshotFile, readSnapshotFile, snapshotFileKey } from '../src/snapshot/file.js';
import { resetDatabase, sharedPGlite } from './helpers/db.js';
import { type Answer, KEY, answerOf, scenarioRequests } from './helpers/browser-page/requests.js';
import { serveDir, servedDir } from './helpers/browser-page/site.js';

// petstore-router/browser and petstore-router/msw in Debian's chromium: a page bundled with esbuild
// (as docs/browser.md shows) runs the store on PGlite with idb://, answers as the server does,
// keeps its pets across a reload; MSW's service worker routes the page's fetch calls to it.
const browserTest: (name: string, fn: () => Promise<void>) => void = HAS_CHROMIUM ? test : (name) => test.skip(`${name} (no ${CHROMIUM})`);

async function open(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  await page.waitForFunction(() => 'scenario' in globalThis);
}

/** What the server answers: the same createPetStore on PGlite in Node, same requests. */
async function serverAnswers(): Promise<Answer[]> {
  const db = await sharedPGlite();
  await resetDatabase(db);
  const server = createPetStore({ db, keys: [KEY] });
  const expected: Answer[] = [];
  for (const request of scenarioRequests()) expected.push(await answerOf(await server.fetch(request)));
  assert.equal(
    expected.map((a) => a.status),
    [201, 200, 200, 401, 400],
  );
  return expected;
}

async function newPage(browser: Browser, origin: string): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(120_000);
  // What the page could not load or threw is printed, so a failure says why.
  page.on('pageerror', (error) => console.error('page error:', error));
  // (The 404 of /missing.snapshot is asked for.)
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.location().url?.endsWith('/missing.snapshot'))
      console.error('page console:', message.text());
  });
  await open(page, origin);
  return page;
}

browserTest('the browser store answers as the server does, keeps its pets across a reload, and serves MSW', async () => {
  const dir = await servedDir();
  const { server: site, origin } = await serveDir(dir);
  // Another origin the page calls: MSW must let it through to this real server.
  const other = createServer((_req, res) => res.writeHead(200, { 'access-control-allow-origin': '*' }).end('the real other origin'));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const elsewhere = `http://localhost:${(other.address() as AddressInfo).port}/hello`;
  let browser: Browser | undefined;
  try {
    const expected = await serverAnswers();
    mkdirSync(join(dir, 'profile'));
    browser = await launchChromium(dir);
    const page = await newPage(browser, origin);
    const answers = await page.evaluate(() =>
      (globalThis as unknown as { scenario(d: string): Promise<Answer[]> }).scenario('idb://petstore-ci'),
    );
    assert.equal(answers, expected);

    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(() => 'afterReload' in globalThis);
    const list = await page.evaluate(() =>
      (globalThis as unknown as { afterReload(d: string): Promise<Answer> }).afterReload('idb://petstore-ci'),
    );
    assert.equal(list, expected[1]);

    const msw = await page.evaluate(
      (url) =>
        (globalThis as unknown as { withMsw(u: string): Promise<{ created: number; list: unknown; elsewhere: string }> }).withMsw(url),
      elsewhere,
    );
    assert.equal(msw, {
      created: 201,
      list: [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }],
      elsewhere: 'the real other origin',
    });
  } finally {
    await browser?.close();
    site.close();
    other.close();
  }
});

/**
 * The snapshot files the page is served: the one `petstore-router snapshot` writes (gzip, and --no-gzip),
 * a "marked" one for this code holding a pet of its own (so a list tells whether it was loaded),
 * and stale or foreign variants of the marked one, each of which must never be loaded.
 */
async function writeSnapshots(dir: string): Promise<Record<string, RegExp>> {
  const raw = await browserSnapshot({ gzip: false });
  writeFileSync(join(dir, 'petstore.tar.snapshot'), raw);
  writeFileSync(join(dir, 'petstore.snapshot'), await browserSnapshot());
  const checked = await readSnapshotFile(new Blob([raw as Uint8Array<ArrayBuffer>]));
  if (!checked.ok) throw new Error(checked.reason);
  // Closed in any case: a PGlite started from a dump keeps Node alive until closed.
  const pglite = new PGlite({ loadDataDir: checked.tarball });
  let dump: Blob;
  try {
    const store = createPetStore({ db: await createPGliteDatabase({ pglite }), keys: [KEY] });
    const created = await store.fetch(
      new Request('http://petstore.test/v1/pets', {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'FromSnapshot', categoryId: 1 }),
      }),
    );
    assert.is(created.status, 201);
    await pglite.exec('checkpoint');
    dump = await pglite.dumpDataDir('none');
  } finally {
    await pglite.close();
  }
  const release = checked.pgliteVersion;
  const marked = Buffer.from(await (await encodeSnapshotFile(dump, release, false)).arrayBuffer());
  writeFileSync(join(dir, 'marked.snapshot'), marked);
  const end = marked.indexOf(0x0a);
  const header = marked.subarray(0, end).toString('latin1');
  const [format, key, version, , sum, length] = header.split(' ') as [string, string, string, string, string, string];
  const withHeader = (text: string) => Buffer.concat([Buffer.from(text, 'latin1'), marked.subarray(end)]);
  const stale: Record<string, [Buffer, RegExp]> = {
    // Another release of petstore-router (its key names that release).
    'stale-release.snapshot': [
      withHeader([format, await snapshotFileKey(release, '0.0.9'), '0.0.9', release, sum, length].join(' ')),
      /made by petstore-router 0\.0\.9/,
    ],
    // This release's name but another key: other migrations made it.
    'other-migrations.snapshot': [
      withHeader([format, (key[0] === '0' ? '1' : '0') + key.slice(1), version, release, sum, length].join(' ')),
      /other migrations/,
    ],
    // Checked only once PGlite runs: made by another PGlite release, with the right key for it.
    'other-pglite.snapshot': [Buffer.from(await (await encodeSnapshotFile(dump, '0.4.0', false)).arrayBuffer()), /made by PGlite 0\.4\.0/],
    'corrupt.snapshot': [
      Buffer.concat([
        marked.subarray(0, marked.length - 1000),
        Buffer.from([marked[marked.length - 1000]! ^ 1]),
        marked.subarray(marked.length - 999),
      ]),
      /sha256/,
    ],
    'truncated.snapshot': [marked.subarray(0, marked.length - 1), /truncated/],
    'not-a.snapshot': [Buffer.from('<!doctype html>not found'), /not a snapshot file/],
  };
  for (const [name, [bytes]] of Object.entries(stale)) writeFileSync(join(dir, name), bytes);
  return Object.fromEntries(Object.entries(stale).map(([name, [, reason]]) => [name, reason]));
}

type PageFns = {
  snapshotScenario(dataDir: string | undefined, snapshot: string): Promise<{ answers: Answer[]; warnings: string[] }>;
  snapshotList(dataDir: string | undefined, snapshot: string): Promise<{ list: Answer; warnings: string[] }>;
  forgetKnownStores(): Promise<void>;
};

browserTest(
  'the snapshot: a new store starts from it and answers as the server does, an existing one is never overwritten, a stale one is never loaded',
  async () => {
    const dir = await servedDir();
    const stale = await writeSnapshots(dir);
    const { server: site, origin } = await serveDir(dir);
    let browser: Browser | undefined;
    try {
      const expected = await serverAnswers();
      mkdirSync(join(dir, 'profile'));
      browser = await launchChromium(dir);
      const page = await newPage(browser, origin);
      const call = <K extends keyof PageFns>(name: K, ...args: Parameters<PageFns[K]>) =>
        page.evaluate(
          (n, a) => (globalThis as unknown as Record<string, (...x: unknown[]) => unknown>)[n]!(...a),
          name,
          args,
        ) as ReturnType<PageFns[K]>;

      // A new idb:// store from the snapshot answers as the server does; so does one in memory.
      assert.equal(await call('snapshotScenario', 'idb://snap-ci', '/petstore.snapshot'), { answers: expected, warnings: [] });
      assert.equal(await call('snapshotScenario', undefined, '/petstore.tar.snapshot'), { answers: expected, warnings: [] });

      // The marked snapshot is loaded: its own pet is listed.
      const fromSnapshot = await call('snapshotList', undefined, '/marked.snapshot');
      assert.equal(fromSnapshot.warnings, []);
      assert.match(fromSnapshot.list.body, /"name":"FromSnapshot"/);

      // After a reload the idb:// store holds its pets, and a snapshot given again changes nothing:
      // the origin knows the store (nothing fetched), and without that hint PGlite refuses the tarball.
      await page.reload({ waitUntil: 'load' });
      await page.waitForFunction(() => 'snapshotList' in globalThis);
      assert.equal(await call('snapshotList', 'idb://snap-ci', '/marked.snapshot'), { list: expected[1]!, warnings: [] });
      await call('forgetKnownStores');
      const unknown = await call('snapshotList', 'idb://snap-ci', '/marked.snapshot');
      assert.equal(unknown.list, expected[1]);
      assert.match(unknown.warnings.join('\n'), /did not start from the snapshot \(Database already exists/);

      // Stale or foreign files are never loaded: a new store is migrated from scratch, and says why.
      for (const [name, reason] of Object.entries(stale)) {
        const run = await call('snapshotList', undefined, `/${name}`);
        assert.is(run.list.body, '[]', `${name} was loaded`);
        assert.is(run.warnings.length, 1, `${name}: ${run.warnings.join(' | ')}`);
        assert.match(run.warnings[0]!, reason, name);
      }
      const staleIdb = await call('snapshotList', 'idb://stale-ci', '/stale-release.snapshot');
      assert.is(staleIdb.list.body, '[]');
      assert.match(staleIdb.warnings.join('\n'), /made by petstore-router 0\.0\.9/);
      // A file that cannot be fetched: the same, migrated from scratch.
      const missing = await call('snapshotList', undefined, '/missing.snapshot');
      assert.is(missing.list.body, '[]');
      assert.match(missing.warnings.join('\n'), /cannot read the snapshot \(HTTP 404/);
      // Another PGlite's file in a new idb:// directory: written by the time PGlite names its release,
      // so kept (PostgreSQL accepted it) and said.
      const otherPGlite = await call('snapshotList', 'idb://other-pglite-ci', '/other-pglite.snapshot');
      assert.match(otherPGlite.list.body, /"name":"FromSnapshot"/);
      assert.match(otherPGlite.warnings.join('\n'), /made by PGlite 0\.4\.0, this page runs \d+\.\d+\.\d+: make the snapshot again/);
    } finally {
      await browser?.close();
      site.close();
    }
  },
);

test.run();
