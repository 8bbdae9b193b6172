// The Node adapter builds a request's URL as text where that is already what `new URL()` would
// serialise (targetUrl in src/http/request-url.ts, with its plain-URL rules), and
// hands the store its parts. On generated hosts and targets it must give exactly the href and
// parts `new URL()` gives, and refuse what `new URL()` refuses.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { targetUrl } from '../src/http/request-url.js';
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
  };
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
    let expected: URL | undefined;
    try {
      expected = new URL(`${scheme}://${host}${path}`);
    } catch {
      expected = undefined;
    }
    const [url, parsed] = countingUrls(() => targetUrl(scheme, host, path));
    if (parsed === 0) fast++;
    const parts = (u: { href: string; origin: string; pathname: string; searchParams: URLSearchParams } | undefined) =>
      u && [u.href, u.origin, u.pathname, u.searchParams.toString()];
    assert.equal(parts(url), parts(expected), `${scheme}://${host}${path}`);
  }
  assert.ok(fast > 4_000, `the text path is taken (${fast} times)`);
});

test('the usual requests are not parsed', () => {
  for (const [host, path] of [
    ['127.0.0.1:18080', '/v1/pets?limit=20'],
    ['localhost:3000', '/v1/pets/9007199254740993'],
    ['api.example.com', '/v1/pets?status=available&limit=100&cursor=eyJ2IjoxfQ'],
  ] as const) {
    const [url, parsed] = countingUrls(() => targetUrl('http', host, path));
    assert.is(parsed, 0, `${host}${path}`);
    assert.is(url?.href, new URL(`http://${host}${path}`).href);
  }
});

test('what needs normalising is normalised by new URL()', () => {
  assert.is(targetUrl('http', 'Example.COM:80', "/a/./b/%2e%2e/c?x='y")?.href, 'http://example.com/a/c?x=%27y');
  assert.is(targetUrl('https', 'h:443', '/p q')?.href, 'https://h/p%20q');
  assert.is(targetUrl('http', 'a b', '/'), undefined);
});

test.run();
