import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'puppeteer-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { build } from 'vite';
import { CHROMIUM, HAS_CHROMIUM, launchChromium } from './helpers/chromium.js';
import { browserSnapshot } from '../src/pglite.js';
import { browserBlockRunner, codeBlocks } from './helpers/markdown.js';
import { tempDir } from './helpers/temp-dir.js';

// The Vite recipe of docs/browser.md, built by Vite and run in Debian's chromium: the snapshot
// file in `public/`, named through `import.meta.env.BASE_URL`, PGlite excluded from dependency
// pre-bundling, the app under a base path. The page must fetch the snapshot from under the base
// path, start from it (a file it could not use is skipped with a console warning) and answer; a
// second tab on the same idb:// directory shares the first's store.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BASE = '/app/';
const KEY = 'vite-recipe-key';

const browserTest: (name: string, fn: () => Promise<void>) => void = HAS_CHROMIUM ? test : (name) => test.skip(`${name} (no ${CHROMIUM})`);

/** The page of the recipe: a store from the snapshot, a create and a list, and what it warned. */
const MAIN = `
import { createBrowserStore } from 'petstore-router/browser';

const warnings = [];
const warn = console.warn;
console.warn = (...args) => { warnings.push(args.join(' ')); warn(...args); };
const headers = { authorization: 'Bearer ${KEY}' };
try {
  const store = await createBrowserStore({
    dataDir: 'idb://vite-recipe',
    keys: ['${KEY}'],
    snapshot: import.meta.env.BASE_URL + 'petstore.snapshot',
  });
  const created = await store.fetch(new Request(location.origin + '/v1/pets', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: location.hash.slice(1), categoryId: 1 }),
  }));
  const list = await store.fetch(new Request(location.origin + '/v1/pets', { headers }));
  globalThis.result = { created: created.status, list: await list.json(), warnings };
} catch (error) {
  globalThis.result = { error: String(error), warnings };
}
`;

/** A Vite project as docs/browser.md describes it, built into its `dist/`. */
async function builtApp(): Promise<string> {
  const dir = tempDir('petstore-vite-');
  mkdirSync(join(dir, 'public'));
  writeFileSync(join(dir, 'public', 'petstore.snapshot'), await browserSnapshot());
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="./main.js"></script>',
  );
  writeFileSync(join(dir, 'main.js'), MAIN);
  // The recipe's own config file: docs/browser.md's block, as written ("Bundling").
  const config = codeBlocks(readFileSync(join(ROOT, 'docs/browser.md'), 'utf8')).find((b) => browserBlockRunner(b.code) === 'vite');
  assert.ok(config, "docs/browser.md's vite.config.ts block");
  writeFileSync(join(dir, 'vite.config.ts'), config.code);
  await build({
    root: dir,
    base: BASE,
    configFile: join(dir, 'vite.config.ts'),
    logLevel: 'error',
    // The package's sources under its published names, as the esbuild page of browser-store.test.ts has them.
    resolve: { alias: { 'petstore-router/browser': join(ROOT, 'src/browser.ts'), 'petstore-router': join(ROOT, 'src/index.ts') } },
    build: { outDir: join(dir, 'dist'), target: 'es2022' },
  });
  return join(dir, 'dist');
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };

/** Serves `dir` under BASE, as a static host would, and records every path asked for. */
function serveApp(dir: string, asked: string[]): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    asked.push(path);
    const file = path.startsWith(BASE) ? join(dir, path.slice(BASE.length) || 'index.html') : '';
    if (!file.startsWith(dir) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

browserTest(
  'the Vite recipe of docs/browser.md: built under a base path, the page starts from the snapshot in public/ and answers',
  async () => {
    const dist = await builtApp();
    assert.ok(existsSync(join(dist, 'petstore.snapshot')), 'Vite copies public/ into dist/');
    const asked: string[] = [];
    const site = await serveApp(dist, asked);
    let browser: Browser | undefined;
    try {
      browser = await launchChromium(dirname(dist)); // its profile in the project's directory, removed at exit
      const open = async (name: string) => {
        const page = await browser!.newPage();
        page.setDefaultTimeout(120_000);
        page.on('pageerror', (error) => console.error('page error:', error));
        await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}${BASE}#${name}`, { waitUntil: 'load' });
        await page.waitForFunction(() => 'result' in globalThis);
        return page.evaluate(() => (globalThis as unknown as { result: unknown }).result);
      };
      const rex = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };
      assert.equal(await open('Rex'), {
        created: 201,
        list: [rex],
        warnings: [], // a snapshot not found, stale or damaged would be named here
      });
      // A second tab while the first holds the store: one store, both pets.
      assert.equal(await open('Tom'), {
        created: 201,
        list: [rex, { id: 2, name: 'Tom', categoryId: 1, status: 'available' }],
        warnings: [],
      });
      assert.ok(asked.includes(`${BASE}petstore.snapshot`), `the snapshot is fetched under the base path (asked: ${asked.join(', ')})`);
      assert.ok(
        asked.some((path) => path.endsWith('.wasm')),
        `PGlite's wasm is served from Vite's assets (asked: ${asked.join(', ')})`,
      );
    } finally {
      await browser?.close();
      site.close();
    }
  },
);

test.run();
