// The Node adapter builds a request's URL with targetUrl (src/http/request-url.ts) from the request
// line and the Host header. On generated hosts and targets it must give exactly the href and parts
// `new URL()` gives, and refuse (undefined, a 400) what `new URL()` refuses.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { targetUrl } from '../src/http/request-url.js';
import { HOSTS, random, target } from './helpers/generate.js';

test('the same href as new URL(), or undefined where it throws, on 30,000 generated requests', () => {
  const next = random(424242);
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
    const url = targetUrl(scheme, host, path);
    const parts = (u: { href: string; origin: string; pathname: string; searchParams: URLSearchParams } | undefined) =>
      u && [u.href, u.origin, u.pathname, u.searchParams.toString()];
    assert.equal(parts(url), parts(expected), `${scheme}://${host}${path}`);
  }
});

test('what needs normalising is normalised by new URL()', () => {
  assert.is(targetUrl('http', 'Example.COM:80', "/a/./b/%2e%2e/c?x='y")?.href, 'http://example.com/a/c?x=%27y');
  assert.is(targetUrl('https', 'h:443', '/p q')?.href, 'https://h/p%20q');
  assert.is(targetUrl('http', 'a b', '/'), undefined);
});

test.run();
