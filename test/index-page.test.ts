// The standalone server's `GET /` check (adapters/cli/index-page.ts) reads the path from the URL's
// text; it must agree with `new URL(url).pathname === '/'` for every URL a Request can hold.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isRootPath } from '../adapters/cli/index-page.js';

const urls = [
  'http://127.0.0.1:8080/',
  'http://127.0.0.1:8080/?a=1',
  'http://127.0.0.1:8080/#top',
  'http://localhost/v1/pets',
  'http://localhost/v1',
  'http://localhost//',
  'http://localhost/?/x',
  'http://localhost/%2F',
  'https://[::1]:8443/',
  'https://[::1]:8443/docs',
  'http://user:pass@example.test/',
  'http://user:pass@example.test/x?y=/',
  'http://example.test/index.html',
  'http://example.test/.',
];

test('isRootPath agrees with new URL().pathname on every serialised URL', () => {
  for (const text of urls) {
    const href = new URL(text).href; // what Request.url holds
    assert.is(isRootPath(href), new URL(href).pathname === '/', href);
  }
});

test.run();
