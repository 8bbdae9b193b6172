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
      const files = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((u) => !u.startsWith('data:'));
      assert.equal(files.sort(), ['/v1/docs/init.js', '/v1/docs/swagger-ui-bundle.js', '/v1/docs/swagger-ui.css']);
      for (const file of files) {
        const res = await fetch(new Request(`${ORIGIN}${file}`));
        assert.is(res.status, 200, file);
        assert.match(res.headers.get('content-type') ?? '', file.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
        assert.ok((await res.arrayBuffer()).byteLength > 100, file);
      }
      assert.match(html, /data-document="\/v1\/docs\/openapi.json"/);
      const doc = await (await fetch(new Request(`${ORIGIN}/v1/docs/openapi.json`))).json();
      assert.equal(doc.servers, [{ url: '/v1' }], 'try it calls this store, on the page origin');
      const operations = Object.values<Record<string, { operationId: string }>>(doc.paths).flatMap((item) =>
        Object.values(item).map((o) => o.operationId),
      );
      assert.equal(operations.sort(), ['createPet', 'getPet', 'listOrders', 'listPets']);
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

test('without a renderer, or with docs: false, there is no page: an ordinary authenticated path', async () => {
  const db = await sharedPGlite();
  for (const store of [createPetStore({ db, keys: [KEY] }), createPetStore({ db, keys: [KEY], docs: false })]) {
    assert.is((await store.fetch(new Request(`${ORIGIN}/v1/docs`))).status, 401);
    const res = await store.fetch(new Request(`${ORIGIN}/v1/docs`, { headers: { authorization: `Bearer ${KEY}` } }));
    assert.is(res.status, 404);
  }
});

test('at the root base path, and with the openapi document turned off, the page still has its document', async () => {
  const { fetch, close } = await mounted(inProcess, { basePath: '', openapi: false });
  try {
    assert.match(await (await fetch(new Request(`${ORIGIN}/docs`))).text(), /data-document="\/docs\/openapi.json"/);
    const doc = await (await fetch(new Request(`${ORIGIN}/docs/openapi.json`))).json();
    assert.equal(doc.servers, [{ url: '/' }]);
    assert.is((await fetch(new Request(`${ORIGIN}/openapi.json`))).status, 401);
  } finally {
    await close();
  }
});

test.run();
