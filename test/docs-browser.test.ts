import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM, HAS_CHROMIUM, launchChromium } from './helpers/chromium.js';
import { serve } from '../adapters/node.js';
import { apiReference } from '../adapters/docs.js';
import { createPetStore } from '../src/index.js';
import { sharedPGlite, resetDatabase } from './helpers/db.js';
import { KEY } from './helpers/harness.js';
import { tempDir } from './helpers/temp-dir.js';

// Decisions, "API reference page", in a real browser: Debian's chromium, driven by puppeteer-core
// (which downloads no browser). The page must show the operations, load everything from the
// store's own origin, and let a user authorize with a key and send listPets.

// Outside CI, a machine without Chromium reports the case as skipped (npm test still passes there).
const browserTest = HAS_CHROMIUM ? test : (name: string, _fn?: unknown) => test.skip(`${name} (no ${CHROMIUM})`);

browserTest('the API reference page in headless Chromium: the operations, nothing off-origin, "try it" with a key gets 200', async () => {
  const dir = tempDir('petstore-docs-');
  const db = await sharedPGlite();
  await resetDatabase(db);
  const store = createPetStore({ db, keys: [KEY], docs: apiReference() });
  for (const name of ['Rex', 'Tom']) {
    const init = {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
    };
    assert.is((await store.fetch(new Request('http://localhost/v1/pets', init))).status, 201);
  }
  const served = await serve(store, { port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${served.port}`;
  let browser: Browser | undefined;
  try {
    browser = await launchChromium(dir);
    const page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 900 });
    const requests: { url: string; authorization?: string }[] = [];
    page.on('request', (request) => requests.push({ url: request.url(), authorization: request.headers().authorization }));
    page.setDefaultTimeout(30_000);
    await page.goto(`${origin}/v1/docs`, { waitUntil: 'networkidle0' });

    await page.waitForSelector('.opblock');
    const operations = await page.$$eval('.opblock-summary-operation-id', (nodes) => nodes.map((n) => n.textContent?.trim()));
    // The store's one document, which describes itself (getOpenApiDocument) too.
    assert.equal(operations.sort(), ['createPet', 'getOpenApiDocument', 'getPet', 'listOrders', 'listPets']);

    await page.click('.btn.authorize');
    await page.waitForSelector('.modal-ux .auth-container input');
    await page.type('.modal-ux .auth-container input', KEY);
    await page.click('.modal-ux .auth-btn-wrapper .btn.modal-btn.authorize');
    await page.click('.modal-ux .auth-btn-wrapper .btn-done');

    await page.click('#operations-pets-listPets .opblock-summary-control');
    await page.waitForSelector('#operations-pets-listPets .try-out__btn');
    await page.click('#operations-pets-listPets .try-out__btn');
    await page.click('#operations-pets-listPets .btn.execute');
    await page.waitForSelector('#operations-pets-listPets .live-responses-table tr.response .response-col_status');
    const status = await page.$eval('#operations-pets-listPets .live-responses-table tr.response .response-col_status', (n) =>
      n.textContent?.trim(),
    );
    assert.is(status, '200');
    const shown = await page.$eval(
      '#operations-pets-listPets .live-responses-table tr.response .response-col_description',
      (n) => n.textContent ?? '',
    );
    assert.match(shown, /"name": "Rex"/);
    // The top of the page down to the answer of "try it": what a reviewer (and the README) shows.
    const shot = join(dir, 'api-reference.png');
    await page.screenshot({ path: shot, clip: { x: 0, y: 0, width: 1200, height: 1500 }, captureBeyondViewport: true });
    console.log(`docs-browser: screenshot at ${shot}`);
    // `DOCS_SCREENSHOT=docs/api-reference.png` refreshes the README's copy from this run.
    if (process.env.DOCS_SCREENSHOT) copyFileSync(shot, process.env.DOCS_SCREENSHOT);

    const call = requests.find((r) => new URL(r.url).pathname === '/v1/pets');
    assert.ok(call, 'listPets was sent from the page');
    assert.is(call.authorization, `Bearer ${KEY}`);
    const elsewhere = requests.filter((r) => !r.url.startsWith(`${origin}/`) && !/^(data|blob):/.test(r.url));
    assert.equal(
      elsewhere.map((r) => r.url),
      [],
      'no request leaves the page origin',
    );
  } finally {
    await browser?.close();
    await served.close();
  }
});

test.run();
