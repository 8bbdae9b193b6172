import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiReference } from '../adapters/docs.js';
import { createPetStore } from '../src/index.js';
import { sharedPGlite } from './helpers/db.js';
import { KEY, inProcess, type Transport } from './helpers/harness.js';
import { nodeSocket } from './helpers/node-transport.js';

// Decisions, "API reference page": GET {basePath}/docs without a key, every file from the store.
const ORIGIN = 'http://petstore.test';

async function mounted(transport: Transport, options: { basePath?: string; docs?: false; openapi?: false } = {}) {
  const db = await sharedPGlite();
  const docs = options.docs === false ? false : apiReference({ title: 'Pets <&> docs' });
  return transport.mount(createPetStore({ db, keys: [KEY], ...options, docs }));
}

for (const transport of [inProcess, nodeSocket]) {
  test(`${transport.name}: the page, its files and its document are served without a key`, async () => {
    const { fetch, close } = await mounted(transport);
    try {
      const page = await fetch(new Request(`${ORIGIN}/v1/docs`));
      assert.is(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      const html = await page.text();
      assert.match(html, /<title>Pets &#60;&#38;&#62; docs<\/title>/);
      // Issue 24 item 1: every URL of the page is relative to it, so any prefix keeps working.
      const files = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((u) => !u.startsWith('data:'));
      assert.equal(files.sort(), ['docs/init.js', 'docs/swagger-ui-bundle.js', 'docs/swagger-ui.css']);
      for (const file of files) {
        const res = await fetch(new Request(new URL(file, `${ORIGIN}/v1/docs`)));
        assert.is(res.status, 200, file);
        assert.match(res.headers.get('content-type') ?? '', file.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
        assert.ok((await res.arrayBuffer()).byteLength > 100, file);
      }
      // Issue 24 item 13: the page renders the store's one document, whose server is relative to it.
      assert.match(html, /data-document="openapi.json"/);
      const text = await (await fetch(new Request(`${ORIGIN}/v1/openapi.json`))).text();
      const doc = JSON.parse(text);
      assert.equal(doc.servers, [{ url: '.', description: 'The API, at the address this document was served from' }]);
      assert.is(new URL(doc.servers[0].url, `${ORIGIN}/v1/openapi.json`).href, `${ORIGIN}/v1/`, 'try it calls this store');
      const operations = Object.values<Record<string, { operationId: string }>>(doc.paths).flatMap((item) =>
        Object.values(item).map((o) => o.operationId),
      );
      assert.equal(operations.sort(), ['createPet', 'getOpenApiDocument', 'getPet', 'listOrders', 'listPets']);
      assert.is((await fetch(new Request(`${ORIGIN}/v1/docs/openapi.json`))).status, 404, 'no second, different document');
      const head = await fetch(new Request(`${ORIGIN}/v1/docs`, { method: 'HEAD' }));
      assert.is(head.status, 200);
      assert.is(await head.text(), '');
      const missing = await fetch(new Request(`${ORIGIN}/v1/docs/package.json`));
      assert.is(missing.status, 404);
      assert.is((await missing.json()).code, 'not_found');
      assert.is((await fetch(new Request(`${ORIGIN}/v1/docs/..%2Fpackage.json`))).status, 404);
      assert.is((await fetch(new Request(`${ORIGIN}/v1/docs`, { method: 'POST' }))).status, 401);
    } finally {
      await close();
    }
  });
}

for (const basePath of ['/v1', '/api/v1', '']) {
  test(`basePath ${JSON.stringify(basePath)}: the page with trailing slashes redirects to itself by a relative Location`, async () => {
    const { fetch, close } = await mounted(inProcess, { basePath });
    try {
      for (const slashes of ['/', '//']) {
        const res = await fetch(new Request(`${ORIGIN}${basePath}/docs${slashes}`));
        assert.is(res.status, 308);
        const location = res.headers.get('location')!;
        assert.not.match(location, /^\//, 'relative: keeps whatever prefix the client used');
        assert.is(new URL(location, `https://host.example/prefix${basePath}/docs${slashes}`).pathname, `/prefix${basePath}/docs`);
      }
      const html = await (await fetch(new Request(`${ORIGIN}${basePath}/docs`))).text();
      const css = new URL(/href="([^"]+\.css)"/.exec(html)![1]!, `${ORIGIN}${basePath}/docs`);
      assert.is(css.pathname, `${basePath}/docs/swagger-ui.css`);
      assert.is((await fetch(new Request(css))).status, 200);
      const document = new URL(/data-document="([^"]+)"/.exec(html)![1]!, `${ORIGIN}${basePath}/docs`);
      assert.is(document.pathname, `${basePath}/openapi.json`);
      assert.is((await fetch(new Request(document))).status, 200);
    } finally {
      await close();
    }
  });
}

test('without a renderer, or with docs: false, there is no page: an ordinary authenticated path', async () => {
  const db = await sharedPGlite();
  for (const store of [createPetStore({ db, keys: [KEY] }), createPetStore({ db, keys: [KEY], docs: false })]) {
    assert.is((await store.fetch(new Request(`${ORIGIN}/v1/docs`))).status, 401);
    const res = await store.fetch(new Request(`${ORIGIN}/v1/docs`, { headers: { authorization: `Bearer ${KEY}` } }));
    assert.is(res.status, 404);
  }
});

test('the page renders the OpenAPI document: docs with openapi: false fails at creation, naming both', async () => {
  const db = await sharedPGlite();
  assert.throws(() => createPetStore({ db, keys: [KEY], openapi: false, docs: apiReference() }), /options\.docs .*options\.openapi: false/);
});

test.run();
