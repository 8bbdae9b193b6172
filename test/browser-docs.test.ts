import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserSnapshot } from '../src/pglite.js';
import { CHROMIUM, HAS_CHROMIUM, launchChromium } from './helpers/chromium.js';
import { serveDir, servedDir } from './helpers/browser-page/site.js';
import { browserBlockRunner, codeBlocks } from './helpers/markdown.js';

// docs/browser.md's code blocks run in CI (issue 38): each page block (it imports
// petstore-router/browser or msw/browser) is bundled with esbuild as the guide says and run as the
// page of a chromium tab, served with PGlite's files, MSW's worker and the snapshot file; it passes
// when it ran to its end with no error. The Vite config block is the config of
// test/browser-vite.test.ts; the Node block runs in test/docs-code.test.ts.
const browserTest: (name: string, fn: () => Promise<void>) => void = HAS_CHROMIUM ? test : (name) => test.skip(`${name} (no ${CHROMIUM})`);

const ROOT = join(import.meta.dirname, '..');
const BLOCKS = join(ROOT, '.cache', `browser-blocks-${process.pid}`);

const blocks = codeBlocks(readFileSync(join(ROOT, 'docs/browser.md'), 'utf8')).filter((b) => browserBlockRunner(b.code) === 'page');

blocks.forEach((block, i) => {
  browserTest(`docs/browser.md block at line ${block.line} runs as a page in chromium`, async () => {
    mkdirSync(BLOCKS, { recursive: true });
    const entry = join(BLOCKS, `block-${i}.ts`);
    // The block as written; the line after it says it ran to its end.
    writeFileSync(entry, `${block.code}\n;(globalThis as unknown as { blockDone: boolean }).blockDone = true;\n`);
    const dir = await servedDir(entry);
    writeFileSync(join(dir, 'petstore.snapshot'), await browserSnapshot());
    mkdirSync(join(dir, 'profile'));
    const site = await serveDir(dir);
    const browser = await launchChromium(dir);
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warn') errors.push(message.text());
      });
      await page.goto(`${site.origin}/`, { waitUntil: 'load' });
      const done = () => page.evaluate(() => 'blockDone' in globalThis);
      for (const giveUp = Date.now() + 120_000; errors.length === 0 && !(await done()) && Date.now() < giveUp;)
        await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(errors, []);
      assert.ok(await page.evaluate(() => 'blockDone' in globalThis), 'the block ran to its end');
    } finally {
      await browser.close();
      site.server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test.after(() => rmSync(BLOCKS, { recursive: true, force: true }));

test.run();
