import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rawExchange } from './helpers/raw-socket.js';
import { createPetStore } from 'petstore-router';
import { type FetchHandler, createNodeHandler, serve } from '../adapters/node.js';
import { resetDatabase, sharedPGlite } from './helpers/db.js';
import { KEY } from './helpers/harness.js';

/**
 * RFC 9112 3.2: a server MUST answer 400 to an HTTP/1.1 request without a Host header. Node's own
 * answer to it is a bare 400 with an empty body; ours carries the Error body like every other
 * error below the router (decisions.md), and never reaches the handler. Sent over a raw socket:
 * an HTTP client always adds Host.
 */

const raw = rawExchange;

const split = (answer: string) => {
  const end = answer.indexOf('\r\n\r\n');
  return { head: answer.slice(0, end), body: answer.slice(end + 4) };
};

const NO_HOST = { code: 'invalid_request', message: 'an HTTP/1.1 request must carry a Host header', status: 400 };
const auth = `Authorization: Bearer ${KEY}\r\n`;

/** A store behind `serve()`, counting the requests that reached it. */
async function withStore(run: (port: number, reached: () => number) => Promise<void>) {
  const db = await sharedPGlite();
  await resetDatabase(db);
  const store = createPetStore({ db, keys: [KEY] });
  let calls = 0;
  const counting: FetchHandler = { fetch: (request) => (calls++, store.fetch(request)) };
  const served = await serve(counting, { port: 0, onError: () => {} });
  try {
    await run(served.port, () => calls);
  } finally {
    await served.close();
  }
}

test('HTTP/1.1 without Host: 400 with the Error body, and the store is not called', async () => {
  await withStore(async (port, reached) => {
    const answer = await raw(port, `GET /v1/pets HTTP/1.1\r\n${auth}\r\n`);
    const { head, body } = split(answer);
    assert.match(head, /^HTTP\/1\.1 400 /);
    assert.match(head, /\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
    assert.match(head, /\r\nconnection: close\r\n/i);
    assert.equal(JSON.parse(body), NO_HOST);
    assert.match(head, new RegExp(`\\r\\ncontent-length: ${Buffer.byteLength(body)}(\\r\\n|$)`, 'i'));
    assert.match(head, /\r\nx-request-id: [0-9a-f-]{36}\r\n/i, 'a new request id, like every answer of the store');
    assert.is(reached(), 0);
  });
});

test('an answer of the bridge itself keeps a valid X-Request-Id of the request', async () => {
  await withStore(async (port) => {
    const { head } = split(await raw(port, `GET /v1/pets HTTP/1.1\r\nX-Request-Id: trace-42\r\n${auth}\r\n`));
    assert.match(head, /^HTTP\/1\.1 400 /);
    assert.match(head, /\r\nx-request-id: trace-42\r\n/i);
  });
});

test('HTTP/1.1 without Host, with a body: the same 400, and the connection closes', async () => {
  await withStore(async (port) => {
    const pet = '{"name":"Rex"}';
    const answer = await raw(
      port,
      `POST /v1/pets HTTP/1.1\r\n${auth}Content-Type: application/json\r\nContent-Length: ${pet.length}\r\n\r\n${pet}` +
        `GET /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}\r\n`,
    );
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.equal(JSON.parse(split(answer).body), NO_HOST);
    // Only the 400 is on the wire: the connection closed after it. (Node still parses, and hands
    // the listener, a request pipelined behind it, as it does behind any closing answer.)
    assert.is(answer.match(/(?:^|\r\n)HTTP\/1\.1 \d{3} /g)?.length, 1, 'one answer, then the connection closed');
    const list = await raw(port, `GET /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}Connection: close\r\n\r\n`);
    assert.match(list, /^HTTP\/1\.1 200 /);
    assert.equal(JSON.parse(split(list).body), [], 'the refused POST created no pet');
  });
});

test('HEAD without Host: 400 with the Error headers and no body', async () => {
  await withStore(async (port) => {
    const answer = await raw(port, `HEAD /v1/pets HTTP/1.1\r\n${auth}\r\n`);
    const { head, body } = split(answer);
    assert.match(head, /^HTTP\/1\.1 400 /);
    assert.match(head, /\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
    assert.is(body, '');
  });
});

test('a Host header in any letter case is a Host header: served', async () => {
  await withStore(async (port, reached) => {
    const answer = await raw(port, `GET /v1/pets HTTP/1.1\r\nhOsT: a\r\n${auth}Connection: close\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.is(reached(), 1);
  });
});

test('HTTP/1.0 may omit Host: served', async () => {
  await withStore(async (port, reached) => {
    const answer = await raw(port, `GET /v1/pets HTTP/1.0\r\n${auth}\r\n`);
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.equal(JSON.parse(split(answer).body), []);
    assert.is(reached(), 1);
  });
});

test('createNodeHandler on a server with requireHostHeader: false gives the same Error body', async () => {
  let calls = 0;
  const server = createServer({ requireHostHeader: false }, createNodeHandler({ fetch: () => (calls++, new Response('ok')) }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const answer = await raw((server.address() as AddressInfo).port, 'GET / HTTP/1.1\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.equal(JSON.parse(split(answer).body), NO_HOST);
    assert.is(calls, 0);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test.run();
