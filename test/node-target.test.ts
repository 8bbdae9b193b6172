// The Node adapter builds a request's URL from the request line and the Host header
// (adapters/node/request.ts). On generated hosts and targets `request.url` must be exactly the href
// `new URL()` gives, and the request refused (undefined: the bridge answers 400) where `new URL()`
// refuses it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toRequest } from '../adapters/node/request.js';
import { HOSTS, random, target } from './helpers/generate.js';

/** What toRequest reads of a Node request: method, target, raw headers, whether the socket is TLS. */
function nodeRequest(scheme: string, host: string, path: string): IncomingMessage {
  return { method: 'GET', url: path, rawHeaders: ['Host', host], socket: { encrypted: scheme === 'https' } } as unknown as IncomingMessage;
}

function urlOf(scheme: string, host: string, path: string): string | undefined {
  const state = { started: false, overCap: false, cancelled: false };
  return toRequest(nodeRequest(scheme, host, path), {} as ServerResponse, state, {
    maxBytes: Infinity,
    timeoutMs: Infinity,
    minBytesPerSecond: 1,
  })?.url;
}

test('the same href as new URL(), or refused where it throws, on 30,000 generated requests', () => {
  const next = random(424242);
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
    assert.is(urlOf(scheme, host, path), expected, `${scheme}://${host}${path}`);
  }
});

test('what needs normalising is normalised as new URL() does; an absolute-form target is kept', () => {
  assert.is(urlOf('http', 'Example.COM:80', "/a/./b/%2e%2e/c?x='y"), 'http://example.com/a/c?x=%27y');
  assert.is(urlOf('https', 'h:443', '/p q'), 'https://h/p%20q');
  assert.is(urlOf('http', 'a b', '/'), undefined);
  assert.is(urlOf('http', 'proxy.test', 'http://Example.org/v1/pets'), 'http://example.org/v1/pets');
  assert.is(urlOf('http', 'h', '*'), undefined);
});

test.run();
