import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'puppeteer-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM, HAS_CHROMIUM, launchChromium } from './helpers/chromium.js';
import { tempDir } from './helpers/temp-dir.js';

// Issue 24 items 1 and 2: the four mounting examples under /api, each run as its own program:
// 201 with `Location: /api/v1/pets/{id}`, the host's own 404 for other paths, and the API
// reference page rendered in Debian's Chromium (flags as in docs-browser.test.ts) with no failed
// request, "try it" reaching /api/v1/pets through the document's relative server.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KEY = 'mounting-key-0123456789';
const EXAMPLES = ['express', 'hono', 'fastify', 'node'];

/** Starts an example (no self-test) and resolves with its origin once it prints its listening line. */
function startExample(name: string): { child: ChildProcess; origin: Promise<string>; stderr: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', `examples/${name}/main.ts`], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', PETSTORE_API_KEY: KEY, EXAMPLE_SELF_TEST: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const origin = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: no listening line; stderr: ${err}`)), 60_000);
    child.stdout.on('data', (c) => {
      out += c;
      const m = /^listening on (http:\/\/[^/\s]+)\/api\/v1$/m.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}); stderr: ${err}`)));
  });
  return { child, origin, stderr: () => err };
}

async function stopExample(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const test = suite('mounting under /api');
let browser: Browser | undefined;
test.before(async () => {
  if (!HAS_CHROMIUM) return;
  const dir = tempDir('petstore-mounting-');
  browser = await launchChromium(dir);
});
test.after(async () => {
  await browser?.close();
});

for (const name of EXAMPLES) {
  test(`examples/${name}: Location /api/v1/pets/{id}, the host's own 404, the docs page in Chromium`, async () => {
    const example = startExample(name);
    try {
      const origin = await example.origin;
      const created = await fetch(`${origin}/api/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
        signal: AbortSignal.timeout(10_000),
      });
      assert.is(created.status, 201);
      const pet = (await created.json()) as { id: number };
      assert.is(new URL(created.headers.get('location')!, origin).pathname, `/api/v1/pets/${pet.id}`);
      for (const path of ['/api/elsewhere', '/elsewhere', '/api/v10']) {
        const other = await fetch(`${origin}${path}`);
        assert.is(other.status, 404, path);
        assert.equal(await other.json(), { host: name, error: 'not found' }, `${path}: the host's not-found handler answered`);
      }

      if (!browser) return console.log(`mounting: ${name}: the page check skipped (no ${CHROMIUM})`);
      const page = await browser.newPage();
      try {
        page.setDefaultTimeout(30_000);
        const failed: string[] = [];
        const requests: string[] = [];
        page.on('request', (request) => requests.push(request.url()));
        page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
        page.on('response', (response) => {
          if (response.status() >= 400) failed.push(`${response.url()} ${response.status()}`);
        });
        // With a trailing slash: the relative redirect brings the browser back to the page.
        await page.goto(`${origin}/api/v1/docs/`, { waitUntil: 'networkidle0' });
        assert.is(new URL(page.url()).pathname, '/api/v1/docs');
        await page.waitForSelector('.opblock');
        const operations = await page.$$eval('.opblock-summary-operation-id', (nodes) => nodes.map((n) => n.textContent?.trim()));
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
        const status = '#operations-pets-listPets .live-responses-table tr.response .response-col_status';
        await page.waitForSelector(status);
        assert.is(await page.$eval(status, (n) => n.textContent?.trim()), '200');
        const paths = requests
          .map((url) => new URL(url))
          .filter((url) => url.protocol === 'http:')
          .map((url) => url.pathname);
        for (const path of ['/api/v1/docs/swagger-ui-bundle.js', '/api/v1/openapi.json', '/api/v1/pets'])
          assert.ok(paths.includes(path), `requested ${path}: ${paths.join(' ')}`);
        assert.equal(failed, [], 'no failed request');
        assert.ok(
          requests.every((url) => url.startsWith(`${origin}/`) || /^(data|blob):/.test(url)),
          'nothing off-origin',
        );
      } finally {
        await page.close();
      }
    } finally {
      await stopExample(example.child);
    }
  });
}

test.run();
