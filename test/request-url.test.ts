// The store reads a request's URL parts by slicing `request.url` where its shape allows
// (src/http/request-url.ts) instead of `new URL()`. For any URL a Request can hold, the parts must
// be what `new URL()` gives.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { requestUrl } from '../src/http/request-url.js';
import { HOSTS, random, target } from './helpers/generate.js';

test('origin, pathname and query equal those of new URL(), on 20,000 generated URLs', () => {
  const next = random(20261123);
  let sliced = 0;
  let checked = 0;
  for (let i = 0; i < 20_000; i++) {
    const scheme = next() < 0.8 ? 'http' : 'https';
    let parsed: URL;
    try {
      // As a Request holds it: serialised by the URL parser.
      parsed = new URL(`${scheme}://${HOSTS[Math.floor(next() * HOSTS.length)]}${target(next, i % 2 === 1)}`);
    } catch {
      continue;
    }
    const parts = requestUrl(parsed.href);
    if (!(parts instanceof URL)) sliced++;
    checked++;
    assert.is(parts.origin, parsed.origin, parsed.href);
    assert.is(parts.pathname, parsed.pathname, parsed.href);
    assert.is(parts.searchParams.toString(), parsed.searchParams.toString(), parsed.href);
    assert.equal([...parts.searchParams], [...parsed.searchParams], parsed.href);
  }
  assert.ok(checked > 10_000, `${checked} URLs checked`);
  assert.ok(sliced > 5_000, `the slicing path is taken (${sliced} of ${checked})`);
});

test("the same parts as new URL() for raw, unserialised URLs too (as Deno's server hands them over)", () => {
  const next = random(7);
  let sliced = 0;
  for (let i = 0; i < 20_000; i++) {
    const raw = `${next() < 0.8 ? 'http' : 'https'}://${HOSTS[Math.floor(next() * HOSTS.length)]}${target(next, i % 2 === 1)}`;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      continue;
    }
    const parts = requestUrl(raw);
    if (!(parts instanceof URL)) sliced++;
    assert.is(parts.origin, parsed.origin, raw);
    assert.is(parts.pathname, parsed.pathname, raw);
    assert.equal([...parts.searchParams], [...parsed.searchParams], raw);
  }
  assert.ok(sliced > 2_000, `the slicing path is taken (${sliced} times)`);
  for (const raw of [
    'http://localhost:80/v1/pets',
    'http://127.1/v1/pets',
    'http://h/v1/./pets',
    'http://h/v1/x/../pets',
    'http://h/v1/%2e%2E/pets',
  ]) {
    const parsed = new URL(raw);
    const parts = requestUrl(raw);
    assert.equal([parts.origin, parts.pathname], [parsed.origin, parsed.pathname], raw);
  }
});

test('the usual request URL is sliced, not parsed', () => {
  for (const href of ['http://127.0.0.1:18080/v1/pets?limit=20', 'https://api.example.com/v1/pets/7', 'http://localhost/v1/pets?']) {
    const parts = requestUrl(href);
    assert.not.instance(parts, URL, href);
    const parsed = new URL(href);
    assert.equal(
      [parts.origin, parts.pathname, parts.searchParams.toString()],
      [parsed.origin, parsed.pathname, parsed.searchParams.toString()],
    );
  }
});

test('user info, a fragment and an uppercase host go to new URL()', () => {
  for (const href of ['http://user:pw@h/x', 'http://h/x#frag', 'HTTP://H/x', 'http://[::1]:3000/x']) {
    assert.instance(requestUrl(href), URL, href);
  }
});

test.run();
