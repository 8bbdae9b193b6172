import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import type { Browser, Page } from 'puppeteer-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM, HAS_CHROMIUM, launchChromium } from './helpers/chromium.js';
import { createPetStore } from '../src/index.js';
import { resetDatabase, sharedPGlite } from './helpers/db.js';
import { type Answer, KEY, answerOf, scenarioRequests } from './helpers/browser-page/requests.js';

// petstore-router/browser and petstore-router/msw in Debian's chromium: a page bundled with esbuild
// (as docs/browser.md shows) runs the store on PGlite with idb://, answers as the server does,
// keeps its pets across a reload; MSW's service worker routes the page's fetch calls to it.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const browserTest: (name: string, fn: () => Promise<void>) => void = HAS_CHROMIUM ? test : (name) => test.skip(`${name} (no ${CHROMIUM})`);

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.data': 'application/octet-stream',
};

/** The served directory: the page, its bundle, PGlite's wasm and data, MSW's worker script. */
async function servedDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-browser-'));
  await build({
    entryPoints: [join(ROOT, 'test/helpers/browser-page/page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outfile: join(dir, 'page.js'),
    // PGlite 0.5 imports node:module, and the package's Node-only paths node:fs and the like, on
    // paths the browser never takes.
    external: ['node:*'],
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'error',
  });
  // PGlite fetches these next to the bundle (new URL('./pglite.wasm', import.meta.url)).
  const pglite = join(ROOT, 'node_modules/@electric-sql/pglite/dist');
  for (const file of ['pglite.wasm', 'pglite.data', 'initdb.wasm']) cpSync(join(pglite, file), join(dir, file));
  execFileSync(process.execPath, [join(ROOT, 'node_modules/msw/cli/index.js'), 'init', dir, '--no-save'], { stdio: 'ignore' });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="/page.js"></script>',
  );
  return dir;
}

function serveDir(dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = join(dir, new URL(req.url ?? '/', 'http://x').pathname.replace(/\/$/, '/index.html'));
    if (!path.startsWith(dir) || !existsSync(path)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(readFileSync(path));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function open(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  await page.waitForFunction(() => 'scenario' in globalThis);
}

browserTest('the browser store answers as the server does, keeps its pets across a reload, and serves MSW', async () => {
  const dir = await servedDir();
  const site = await serveDir(dir);
  // Another origin the page calls: MSW must let it through to this real server.
  const other = createServer((_req, res) => res.writeHead(200, { 'access-control-allow-origin': '*' }).end('the real other origin'));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const elsewhere = `http://localhost:${(other.address() as AddressInfo).port}/hello`;
  let browser: Browser | undefined;
  try {
    // What the server answers: the same createPetStore on PGlite in Node, same requests.
    const db = await sharedPGlite();
    await resetDatabase(db);
    const server = createPetStore({ db, keys: [KEY] });
    const expected: Answer[] = [];
    for (const request of scenarioRequests()) expected.push(await answerOf(await server.fetch(request)));
    assert.equal(
      expected.map((a) => a.status),
      [201, 200, 200, 401, 400],
    );

    mkdirSync(join(dir, 'profile'));
    browser = await launchChromium(dir);
    const page = await browser.newPage();
    page.setDefaultTimeout(60_000);
    // What the page could not load or threw is printed, so a failure says why.
    page.on('pageerror', (error) => console.error('page error:', error));
    page.on('console', (message) => message.type() === 'error' && console.error('page console:', message.text()));
    await open(page, origin);
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

test.run();
