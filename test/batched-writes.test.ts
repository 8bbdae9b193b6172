// The Node bridge writes the store's JSON answers of one event-loop turn together at its end
// (adapters/node/response.ts, AnswerBatch; `batchWrites`, on by default). The differential case:
// the same requests through a bridge with batching and one without get byte-for-byte the same
// answers (Date aside). Then what batching must keep: answers in order on a pipelined connection,
// a write Node refuses answered with a 500 while the rest of its batch still goes out, and a
// client gone before the flush costs nothing.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type FetchHandler, createNodeHandler, nodeResponse, serve } from '../adapters/node.js';
import { createPetStore } from '../src/index.js';
import { resetDatabase, sharedPGlite } from './helpers/db.js';
import { KEY } from './helpers/harness.js';
import { rawExchange } from './helpers/raw-socket.js';

/** A node:http server on a free port around `listener`; closed by the returned function. */
async function listen(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const withoutDate = (answer: string) => answer.replace(/\r\nDate: [^\r]*/g, '');

/** Requests whose answers do not depend on when they are made (the pet's id is fixed by the seed). */
const requests = (petId: number) => [
  `GET /v1/pets?limit=2 HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${KEY}\r\nX-Request-Id: a\r\n\r\n`,
  `GET /v1/pets/${petId} HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${KEY}\r\nX-Request-Id: b\r\n\r\n`,
  `GET /v1/pets/${petId} HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${KEY}\r\nX-Request-Id: b\r\nIf-None-Match: *\r\n\r\n`,
  `HEAD /v1/pets/${petId} HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${KEY}\r\nX-Request-Id: c\r\n\r\n`,
  `GET /v1/pets/0 HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${KEY}\r\nX-Request-Id: d\r\n\r\n`,
  `GET /v1/pets HTTP/1.1\r\nHost: t\r\nX-Request-Id: e\r\n\r\n`,
  `POST /v1/pets HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${KEY}\r\nX-Request-Id: f\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{"name":1`,
  `POST /v1/pets HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${KEY}\r\nX-Request-Id: g\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n{"name":"x"}`,
  `DELETE /v1/pets HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${KEY}\r\nX-Request-Id: h\r\nConnection: close\r\n\r\n`,
];

test('with and without batching, the same requests get the same bytes, in order on one connection', async () => {
  const db = await sharedPGlite();
  await resetDatabase(db);
  const store = createPetStore({ db, keys: [KEY], createResponse: nodeResponse });
  const created = await store.fetch(
    new Request('http://t/v1/pets', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":7}',
    }),
  );
  const { id } = (await created.json()) as { id: number };
  const batched = await serve(store, { port: 0 });
  const immediate = await serve(store, { port: 0, batchWrites: false });
  try {
    // Every request in one write: pipelined, so the answers of one connection are made in the
    // same turns and must still come back in the order asked.
    const all = requests(id).join('');
    const [a, b] = await Promise.all([rawExchange(batched.port, all), rawExchange(immediate.port, all)]);
    assert.is(withoutDate(a), withoutDate(b));
    const ids = [...a.matchAll(/x-request-id: (\w+)/g)].map((m) => m[1]);
    assert.equal(ids, ['a', 'b', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    const statuses = [...a.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    assert.equal(statuses, [200, 200, 304, 200, 404, 401, 400, 400, 405]);
  } finally {
    await batched.close();
    await immediate.close();
  }
});

/** A handler whose answers are ready at once: JSON for every path, a header Node refuses for /bad. */
const instant: FetchHandler = {
  fetch: (request) =>
    nodeResponse('{"ok":true}', 200, {
      'content-type': 'application/json',
      ...(new URL(request.url).pathname === '/bad' ? { 'x-bad': 'line\nbreak' } : {}),
    }),
};

test('a batched answer leaves at the end of its event-loop turn; without batching, within it', async () => {
  for (const batchWrites of [true, false]) {
    const sentBeforeTurnEnd: boolean[] = [];
    const listener = createNodeHandler(instant, { batchWrites });
    // An immediate queued before the bridge's own runs first in the check phase: it sees whether
    // the answer was written during the turn (immediate writes) or not yet (batched ones).
    const server = await listen((req, res) => {
      setImmediate(() => sentBeforeTurnEnd.push(res.headersSent));
      listener(req, res);
    });
    try {
      const answer = await rawExchange(server.port, 'GET /x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n');
      assert.match(answer, /^HTTP\/1\.1 200 /);
      assert.match(answer, /\{"ok":true\}$/);
      assert.equal(sentBeforeTurnEnd, [!batchWrites], `batchWrites: ${batchWrites}`);
    } finally {
      await server.close();
    }
  }
});

test('an answer Node refuses to write gets a 500, and the other answers of its batch still go out', async () => {
  const errors: unknown[] = [];
  const listener = createNodeHandler(instant, { onError: (error) => errors.push(error) });
  const server = await listen(listener);
  try {
    // Two connections whose requests arrive together: their answers share a batch.
    const [bad, good] = await Promise.all([
      rawExchange(server.port, 'GET /bad HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n'),
      rawExchange(server.port, 'GET /good HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n'),
    ]);
    assert.match(bad, /^HTTP\/1\.1 500 /);
    assert.match(bad, /"code":"internal_error"/);
    assert.match(good, /^HTTP\/1\.1 200 /);
    assert.is(errors.length, 1);
    assert.match(String(errors[0]), /x-bad/);
  } finally {
    await server.close();
  }
});

test('a client gone before its batch is written costs nothing: no write, no error, the server serves on', async () => {
  const errors: unknown[] = [];
  const listener = createNodeHandler(instant, { onError: (error) => errors.push(error) });
  let first = true;
  const server = await listen((req, res) => {
    // The first request's connection goes away after its answer was queued, before the flush: an
    // immediate queued before the bridge's own runs first in the check phase.
    if (first) {
      first = false;
      setImmediate(() => res.destroy());
    }
    listener(req, res);
  });
  try {
    const gone = await rawExchange(server.port, 'GET /x HTTP/1.1\r\nHost: t\r\n\r\n');
    assert.is(gone, '');
    const next = await rawExchange(server.port, 'GET /y HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n');
    assert.match(next, /^HTTP\/1\.1 200 /);
    assert.equal(errors, []);
  } finally {
    await server.close();
  }
});

test('batchWrites that is not a boolean fails at creation, naming the option', () => {
  assert.throws(() => createNodeHandler(instant, { batchWrites: 'yes' as never }), /batchWrites must be true or false/);
});

test.run();
