// The Node adapter builds a request's URL as text where that is already what `new URL()` would
// serialise (src/http/plain-url.ts, absoluteUrl). On generated hosts and targets it must give
// exactly what `new URL()` gives, and refuse what `new URL()` refuses.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { absoluteUrl } from '../src/http/plain-url.js';
import { HOSTS, random, target } from './helpers/generate.js';

/** Runs `fn` counting the URLs constructed meanwhile. */
function countingUrls<T>(fn: () => T): [T, number] {
  const Original = globalThis.URL;
  let count = 0;
  globalThis.URL = class extends Original {
    constructor(...args: ConstructorParameters<typeof URL>) {
      count++;
      super(...args);
    }
  } as typeof URL;
  try {
    return [fn(), count];
  } finally {
    globalThis.URL = Original;
  }
}

test('the same href as new URL(), or undefined where it throws, on 30,000 generated requests', () => {
  const next = random(424242);
  let fast = 0;
  for (let i = 0; i < 30_000; i++) {
    const scheme = next() < 0.8 ? 'http' : 'https';
    const host = HOSTS[Math.floor(next() * HOSTS.length)]!;
    const path = target(next, i % 2 === 1);
    let expected: string | undefined;
    try {
      expected = new URL(`${scheme}://${host}${path}`).href;
    } catch {
      expected = undefined;
    }
    const [href, parsed] = countingUrls(() => absoluteUrl(scheme, host, path));
    if (parsed === 0) fast++;
    assert.is(href, expected, `${scheme}://${host}${path}`);
  }
  assert.ok(fast > 4_000, `the text path is taken (${fast} times)`);
});

test('the usual requests are not parsed', () => {
  for (const [host, path] of [
    ['127.0.0.1:18080', '/v1/pets?limit=20'],
    ['localhost:3000', '/v1/pets/9007199254740993'],
    ['api.example.com', '/v1/pets?status=available&limit=100&cursor=eyJ2IjoxfQ'],
  ] as const) {
    const [href, parsed] = countingUrls(() => absoluteUrl('http', host, path));
    assert.is(parsed, 0, `${host}${path}`);
    assert.is(href, new URL(`http://${host}${path}`).href);
  }
});

test('what needs normalising is normalised by new URL()', () => {
  assert.is(absoluteUrl('http', 'Example.COM:80', '/a/./b/%2e%2e/c?x=\'y'), "http://example.com/a/c?x=%27y");
  assert.is(absoluteUrl('https', 'h:443', '/p q'), 'https://h/p%20q');
  assert.is(absoluteUrl('http', 'a b', '/'), undefined);
});

test.run();
