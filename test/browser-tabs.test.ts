import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM, HAS_CHROMIUM, launchChromium } from './helpers/chromium.js';
import { serveDir, servedDir } from './helpers/browser-page/site.js';
import type { Created } from './helpers/browser-page/tabs-page.js';

// Many tabs, one store (docs/browser.md, "Tabs"): tabs of one origin in one chromium profile open
// handles on one idb:// directory. Every tab sees every answered write, ids are unique, nothing is
// lost after reloading every tab or when the leader tab closes; where tabs cannot share (no Web
// Locks), a second handle fails at creation and the first keeps its data.
const browserTest: (name: string, fn: () => Promise<void>) => void = HAS_CHROMIUM ? test : (name) => test.skip(`${name} (no ${CHROMIUM})`);

type Fns = {
  openStore(dataDir: string, noSharing?: boolean): Promise<{ ms: number } | { error: string }>;
  createPets(prefix: string, count: number, together?: boolean): Promise<Created[]>;
  listPets(): Promise<{ id: number; name: string }[]>;
  closeStore(): Promise<void>;
  throughMsw(name: string): Promise<{ created: number; names: string[] }>;
};

function call<K extends keyof Fns>(page: Page, name: K, ...args: Parameters<Fns[K]>): ReturnType<Fns[K]> {
  return page.evaluate(
    (n, a) => (globalThis as unknown as Record<string, (...x: unknown[]) => unknown>)[n]!(...a),
    name,
    args,
  ) as ReturnType<Fns[K]>;
}

let site: Awaited<ReturnType<typeof serveDir>>;
let browser: Browser;

test.before(async () => {
  if (!HAS_CHROMIUM) return;
  const dir = await servedDir('tabs-page.ts');
  mkdirSync(join(dir, 'profile'));
  site = await serveDir(dir);
  browser = await launchChromium(dir);
});
test.after(async () => {
  await browser?.close();
  site?.server.close();
});

async function tab(): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(120_000);
  page.on('pageerror', (error) => console.error('page error:', error));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error('page console:', message.text());
  });
  await page.goto(`${site.origin}/`, { waitUntil: 'load' });
  await page.waitForFunction(() => 'openStore' in globalThis);
  return page;
}

async function opened(page: Page, dataDir: string): Promise<number> {
  const result = await call(page, 'openStore', dataDir);
  if ('error' in result) throw new Error(result.error);
  return result.ms;
}

const names = (pets: { name: string }[]) => pets.map((pet) => pet.name).sort();

for (const count of [2, 3]) {
  browserTest(`${count} tabs creating at once: every tab lists every pet, ids unique, all there after reloading every tab`, async () => {
    const dataDir = `idb://tabs-${count}`;
    const tabs: Page[] = [];
    for (let i = 0; i < count; i++) tabs.push(await tab());
    for (const page of tabs) await opened(page, dataDir);
    // Interleaved: every tab sends its creates at the same time as the others, some all at once.
    const created = await Promise.all(tabs.map((page, i) => call(page, 'createPets', `tab${i}`, 8, i % 2 === 1)));
    const all = created.flat();
    assert.ok(
      all.every((c) => c.status === 201),
      JSON.stringify(all.filter((c) => c.status !== 201)),
    );
    const ids = all.map((c) => c.id);
    assert.is(new Set(ids).size, ids.length, `ids unique: ${ids.join(' ')}`);
    const expected = tabs.flatMap((_, i) => Array.from({ length: 8 }, (_, n) => `tab${i}-${n}`)).sort();
    for (const page of tabs) assert.equal(names(await call(page, 'listPets')), expected);
    for (const page of tabs) {
      await page.reload({ waitUntil: 'load' });
      await page.waitForFunction(() => 'openStore' in globalThis);
    }
    for (const page of tabs) await opened(page, dataDir);
    for (const page of tabs) {
      const pets = await call(page, 'listPets');
      assert.equal(names(pets), expected);
      assert.equal(
        pets.map((p) => p.id).sort((a, b) => a - b),
        [...ids].sort((a, b) => a! - b!),
      );
    }
    for (const page of tabs) await page.close();
  });
}

test.run();
