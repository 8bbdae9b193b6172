import { once } from 'node:events';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rawExchange } from './helpers/raw-socket.js';
import { createPetStore } from 'petstore-router';
import { NodeJsonResponse } from '../adapters/node/response.js';
import { NodeHeaders } from '../adapters/node/headers.js';
import { type FetchHandler, nodeResponse, serve } from '../adapters/node.js';
import { resetDatabase, sharedPGlite } from './helpers/db.js';
import { KEY, openStore } from './helpers/harness.js';
import { nodeSocket } from './helpers/node-transport.js';

const silent = { onError: () => {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const raw = rawExchange;

function bodyOf(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
}

async function withServer(handler: FetchHandler, run: (port: number) => Promise<void>, options = {}) {
  const served = await serve(handler, { port: 0, ...silent, ...options });
  try {
    await run(served.port);
  } finally {
    await served.close();
  }
}

/** Sends GET /slow, waits until the handler has it (`arrival`), then drops the connection. */
async function requestThenLeave(port: number, arrival: Promise<void>): Promise<void> {
  const req = httpRequest({ port, host: '127.0.0.1', path: '/slow' });
  req.on('error', () => {});
  req.end();
  await arrival;
  req.destroy();
}

test('a client disconnect aborts request.signal', async () => {
  let aborted!: () => void;
  const abortSeen = new Promise<void>((r) => (aborted = r));
  let arrived!: () => void;
  const arrival = new Promise<void>((r) => (arrived = r));
  const handler: FetchHandler = {
    fetch: (request) =>
      new Promise((resolve) => {
        request.signal.addEventListener('abort', () => {
          aborted();
          resolve(new Response('late'));
        });
        arrived();
      }),
  };
  await withServer(handler, async (port) => {
    await requestThenLeave(port, arrival);
    await Promise.race([abortSeen, sleep(5_000).then(() => assert.unreachable('signal not aborted'))]);
  });
});

test('request.signal first read after the client left is already aborted', async () => {
  // The bridge adds its disconnect listener on the first read of signal: a handler that reads it
  // only after the client is gone must still see it aborted, not a signal that never fires.
  let seen!: (aborted: boolean) => void;
  const outcome = new Promise<boolean>((r) => (seen = r));
  let arrived!: () => void;
  const arrival = new Promise<void>((r) => (arrived = r));
  let gone!: () => void;
  const clientGone = new Promise<void>((r) => (gone = r));
  const handler: FetchHandler = {
    fetch: async (request) => {
      arrived();
      await clientGone;
      await sleep(100); // let the server see the socket close
      seen(request.signal.aborted);
      return new Response('late');
    },
  };
  await withServer(handler, async (port) => {
    await requestThenLeave(port, arrival);
    gone();
    assert.is(await Promise.race([outcome, sleep(5_000).then(() => 'no answer')]), true);
  });
});

test('a handler that throws gets a 500 Error body', async () => {
  await withServer(
    {
      fetch: () => {
        throw new Error('secret detail');
      },
    },
    async (port) => {
      const answer = await raw(port, 'GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
      assert.match(answer, /^HTTP\/1\.1 500 /);
      assert.equal(bodyOf(answer), { code: 'internal_error', message: 'internal server error', status: 500 });
      assert.not.match(answer, /secret detail/);
    },
  );
});

test('a body stream that fails before the headers went out still gets a 500 Error body', async () => {
  const handler: FetchHandler = {
    fetch: () =>
      new Response(
        new ReadableStream({
          async pull(c) {
            await sleep(20);
            c.error(new Error('broken'));
          },
        }),
      ),
  };
  await withServer(handler, async (port) => {
    const answer = await raw(port, 'GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 500 /);
    assert.is((bodyOf(answer) as { code: string }).code, 'internal_error');
  });
});

test('a handler that rejects after a delay gets a 500 Error body', async () => {
  const handler: FetchHandler = { fetch: () => sleep(50).then(() => Promise.reject(new Error('late failure'))) };
  await withServer(handler, async (port) => {
    const answer = await raw(port, 'POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
    assert.match(answer, /^HTTP\/1\.1 500 /);
    assert.is((bodyOf(answer) as { code: string }).code, 'internal_error');
  });
});

test('a body stream that fails after the headers were sent destroys the socket', async () => {
  const handler: FetchHandler = {
    fetch: () =>
      new Response(
        new ReadableStream({
          async start(c) {
            // Two chunks go out (headers sent, streaming), then the stream fails.
            c.enqueue(new TextEncoder().encode('part1'));
            c.enqueue(new TextEncoder().encode('part2'));
            await sleep(20);
            c.error(new Error('broken'));
          },
        }),
      ),
  };
  await withServer(handler, async (port) => {
    const answer = await raw(port, 'GET /x HTTP/1.1\r\nHost: a\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.not.match(answer, /\r\n0\r\n\r\n$/, 'the chunked body must not look complete');
  });
});

test('several Set-Cookie headers stay separate; a one-chunk body gets Content-Length', async () => {
  const handler: FetchHandler = {
    fetch: () => {
      const headers = new Headers({ 'content-type': 'text/plain' });
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2, c; Path=/');
      return new Response('hello', { headers });
    },
  };
  await withServer(handler, async (port) => {
    const answer = await raw(port, 'GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    assert.equal(
      answer.match(/^set-cookie: .*$/gim),
      ['set-cookie: a=1; Path=/\r', 'set-cookie: b=2, c; Path=/\r'].map((s) => s.trim()),
    );
    assert.match(answer, /\r\ncontent-length: 5\r\n/i);
    assert.not.match(answer, /transfer-encoding/i);
    assert.ok(answer.endsWith('\r\n\r\nhello'));
  });
});

test('HEAD sends headers and no body, even when the handler returns one', async () => {
  await withServer({ fetch: () => new Response('not for HEAD') }, async (port) => {
    const answer = await raw(port, 'HEAD / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.ok(answer.endsWith('\r\n\r\n'), 'nothing after the headers');
  });
});

test('a long streamed response arrives whole (back-pressure respected)', async () => {
  const chunk = new Uint8Array(64 * 1024).fill(120);
  let sent = 0;
  const total = 8 * 1024 * 1024;
  const handler: FetchHandler = {
    fetch: () =>
      new Response(
        new ReadableStream({
          pull(c) {
            if (sent >= total) return c.close();
            sent += chunk.byteLength;
            c.enqueue(chunk);
          },
        }),
      ),
  };
  await withServer(handler, async (port) => {
    const received = await new Promise<number>((resolve, reject) => {
      httpRequest({ port, host: '127.0.0.1', path: '/' }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve(n));
      })
        .on('error', reject)
        .end();
    });
    assert.is(received, total);
  });
});

test('a chunked upload past 64 KiB gets 413 quickly and is not read to the end', async () => {
  const db = await sharedPGlite();
  const store = createPetStore({ db, keys: [KEY] });
  await withServer(store, async (port) => {
    let written = 0;
    const limit = 100 * 1024 * 1024;
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/v1/pets',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
          res.on('error', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', (e) => (written >= limit ? reject(e) : undefined));
      const piece = Buffer.alloc(16 * 1024, 0x20);
      const write = () => {
        while (written < limit && !req.destroyed) {
          written += piece.length;
          if (!req.write(piece)) return void req.once('drain', write);
        }
        if (written >= limit) req.end();
      };
      write();
    });
    assert.is(result.status, 413);
    assert.equal(JSON.parse(result.body), { code: 'payload_too_large', message: 'the request body exceeds 65536 bytes', status: 413 });
    assert.ok(written < 16 * 1024 * 1024, `the server stopped reading (client wrote ${written} bytes)`);
  });
});

test('a JSON body sent in many chunks, with pauses, is read whole (the bridge reads it as bytes)', async () => {
  const db = await sharedPGlite();
  await resetDatabase(db);
  const store = createPetStore({ db, keys: [KEY] });
  await withServer(store, async (port) => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
    const json = `{"name":"${'é'.repeat(40)}","categoryId":9223372036854775807}`;
    const bytes = Buffer.from(json);
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (c) => received.push(c));
    const closed = once(socket, 'close');
    socket.write(head);
    // 7-byte chunks split the two-byte UTF-8 sequences of 'é' across chunks.
    for (let i = 0; i < bytes.length; i += 7) {
      const piece = bytes.subarray(i, i + 7);
      socket.write(`${piece.length.toString(16)}\r\n`);
      socket.write(Buffer.concat([piece, Buffer.from('\r\n')]));
      await sleep(2);
    }
    socket.write('0\r\n\r\n');
    await closed;
    const answer = Buffer.concat(received).toString('utf8');
    assert.match(answer, /^HTTP\/1\.1 201 /);
    assert.match(
      answer.slice(answer.indexOf('\r\n\r\n') + 4),
      new RegExp(`"name":"${'é'.repeat(40)}","categoryId":9223372036854775807,"status":"available"}$`),
    );
  });
});

test('a client that leaves mid-body: the body read ends at once, nothing is stored, the server serves on', async () => {
  const db = await sharedPGlite();
  await resetDatabase(db);
  const store = createPetStore({ db, keys: [KEY] });
  const errors: unknown[] = [];
  let arrive!: () => void;
  const arrived = new Promise<void>((r) => (arrive = r));
  let settle!: (outcome: number | string) => void;
  const outcome = new Promise<number | string>((r) => (settle = r));
  const handler: FetchHandler = {
    fetch: (request) => {
      arrive();
      return store.fetch(request).then(
        (response) => (settle(response.status), response),
        (error: unknown) => (settle(String(error)), Promise.reject(error as Error)),
      );
    },
  };
  const options = { onError: (e: unknown) => void errors.push(e) };
  await withServer(
    handler,
    async (port) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      socket.write(
        `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`,
      );
      await arrived;
      await sleep(20);
      socket.destroy();
      // The store's answer to a body that cannot be read to its end; nobody is left to receive it.
      assert.is(await Promise.race([outcome, sleep(5_000).then(() => 'still reading')]), 400);
      assert.equal(errors, [], 'no 500, nothing reported');
      const again = await raw(port, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`);
      assert.match(again, /^HTTP\/1\.1 200 /);
      assert.equal(bodyOf(again), [], 'nothing stored');
    },
    options,
  );
});

test("the store's header lookups on the lazy request equal Headers.get (repeats, case, whitespace, latin1)", async () => {
  const names = ['authorization', 'x-twice', 'x-spaced', 'x-latin', 'x-empty', 'x-missing'];
  let seen: { direct: (string | null)[]; viaHeaders: (string | null)[] } | undefined;
  const handler: FetchHandler = {
    fetch: (request) => {
      const direct = names.map((n) => request.headers.get(n)); // the raw scan: nothing built Headers yet
      seen = { direct, viaHeaders: names.map((n) => NodeHeaders.real(request.headers as unknown as NodeHeaders).get(n)) };
      return new Response(null, { status: 204 });
    },
  };
  await withServer(handler, async (port) => {
    const answer = await raw(
      port,
      Buffer.from(
        'GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\r\nX-Twice: one\r\nauthorization: Bearer b\r\nx-TWICE:  two \r\n' +
          'X-Spaced: \t inner  space \t\r\nX-Latin: caf\xe9\r\nX-Empty:\r\nConnection: close\r\n\r\n',
        'latin1',
      ),
    );
    assert.match(answer, /^HTTP\/1\.1 204 /);
  });
  assert.ok(seen);
  assert.equal(seen.direct, seen.viaHeaders);
  assert.equal(seen.direct, ['Bearer a, Bearer b', 'one, two', 'inner  space', 'caf\xe9', '', null]);
});

test('an unread body does not stall the keep-alive connection (401 then another request)', async () => {
  const db = await sharedPGlite();
  await withServer(createPetStore({ db, keys: [KEY] }), async (port) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = (headers: Record<string, string>, body?: string) =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const req = httpRequest({ port, host: '127.0.0.1', method: body ? 'POST' : 'GET', path: '/v1/pets', headers, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, socket: req.socket }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const first = await call(
      { authorization: 'Bearer wrong', 'content-type': 'application/json' },
      JSON.stringify({ name: 'x'.repeat(20_000) }),
    );
    assert.is(first.status, 401);
    const second = await call({ authorization: `Bearer ${KEY}` });
    assert.is(second.status, 200);
    assert.is(second.socket, first.socket, 'same connection reused');
    agent.destroy();
  });
});

test('two Authorization headers reach the store as one folded value: 401', async () => {
  const db = await sharedPGlite();
  await withServer(createPetStore({ db, keys: [KEY] }), async (port) => {
    const auth = `Authorization: Bearer ${KEY}\r\n`;
    const answer = await raw(port, `GET /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}${auth}Connection: close\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 401 /);
    assert.is((bodyOf(answer) as { code: string }).code, 'unauthorized');
    const single = await raw(port, `GET /v1/pets HTTP/1.1\r\nHost: a\r\n${auth}Connection: close\r\n\r\n`);
    assert.match(single, /^HTTP\/1\.1 200 /);
  });
});

test("Node's parser errors get Error bodies: 431, 414, 400", async () => {
  await withServer({ fetch: () => new Response('ok') }, async (port) => {
    const big = await raw(port, `GET / HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(big, /^HTTP\/1\.1 431 /);
    assert.match(big, /\r\nx-request-id: [0-9a-f-]{36}\r\n/i, 'a parser error carries a request id too');
    assert.equal(bodyOf(big), { code: 'header_fields_too_large', message: 'the request headers are too large', status: 431 });
    const longUri = await raw(port, `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`);
    assert.match(longUri, /^HTTP\/1\.1 414 /);
    assert.is((bodyOf(longUri) as { code: string }).code, 'uri_too_long');
    const garbage = await raw(port, 'HELLO THERE\r\n\r\n');
    assert.match(garbage, /^HTTP\/1\.1 400 /);
    assert.equal(bodyOf(garbage), { code: 'invalid_request', message: 'malformed HTTP request', status: 400 });
    assert.match(garbage, /content-type: application\/json; charset=utf-8/);
  });
});

test('a client trickling its headers is dropped after headersTimeout (408) while others are served', async () => {
  await withServer(
    { fetch: () => new Response('ok') },
    async (port) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      const chunks: Buffer[] = [];
      socket.on('data', (c) => chunks.push(c));
      socket.write('GET / HTTP/1.1\r\nHost: a\r\n');
      const trickle = setInterval(() => socket.writable && socket.write('X'), 50);
      const started = Date.now();
      await sleep(100);
      const other = await raw(port, 'GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
      assert.match(other, /^HTTP\/1\.1 200 /);
      // Node's own headersTimeout is 60 s: a drop within 10 s is ours, and never before 400 ms.
      await Promise.race([once(socket, 'close'), sleep(10_000)]);
      clearInterval(trickle);
      const elapsed = Date.now() - started;
      assert.ok(socket.destroyed, 'the slow client was disconnected');
      assert.ok(elapsed >= 350, `dropped after ${elapsed} ms`);
      const answer = Buffer.concat(chunks).toString();
      assert.match(answer, /^HTTP\/1\.1 408 /);
      assert.is((bodyOf(answer) as { code: string }).code, 'request_timeout');
    },
    { headersTimeout: 400 },
  );
});

test('close() lets an in-flight request finish and refuses new connections', async () => {
  let arrived!: () => void;
  const arrival = new Promise<void>((r) => (arrived = r));
  const handler: FetchHandler = {
    fetch: async () => {
      arrived();
      await sleep(300);
      return new Response('done');
    },
  };
  // Long timeouts: only the finished request's released keep-alive socket lets close() resolve early.
  const served = await serve(handler, { port: 0, keepAliveTimeout: 60_000, shutdownTimeout: 60_000, ...silent });
  const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
    httpRequest({ port: served.port, host: '127.0.0.1', path: '/', agent: new Agent({ keepAlive: true }) }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });
  await arrival;
  const closed = served.close();
  const refused = await new Promise<string>((resolve) => {
    const s = connect(served.port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
  assert.is(refused, 'ECONNREFUSED');
  assert.equal(await inFlight, { status: 200, body: 'done' });
  const started = Date.now();
  await closed;
  assert.ok(Date.now() - started < 5_000, 'close() resolved once the request finished (keep-alive socket released)');
});

test('close() is bounded: a request that never ends is cut after shutdownTimeout', async () => {
  const served = await serve({ fetch: () => new Promise<Response>(() => {}) }, { port: 0, shutdownTimeout: 200, ...silent });
  const req = httpRequest({ port: served.port, host: '127.0.0.1', path: '/' });
  req.on('error', () => {});
  req.end();
  await sleep(100);
  const started = Date.now();
  await served.close();
  assert.ok(Date.now() - started < 5_000, 'cut after shutdownTimeout, not left waiting for a request that never ends');
});

test('the store round-trips over a real socket (nodeSocket transport)', async () => {
  const db = await sharedPGlite();
  await resetDatabase(db);
  const store = await openStore(nodeSocket, db);
  const call = store.call.bind(store);
  const close = store.close.bind(store);
  try {
    const created = await call('/v1/pets', { method: 'POST', body: '{"name":"Rex","categoryId":9223372036854775807}' });
    assert.is(created.status, 201, await created.clone().text());
    assert.match(await created.clone().text(), /"categoryId":9223372036854775807/, 'int64 exact over the socket');
    const pet = (await created.json()) as { id: number };
    const got = await call(`/v1/pets/${pet.id}`);
    assert.is(got.status, 200);
    assert.is(got.headers.get('deprecation'), '@1795219200');
    const head = await call('/v1/pets', { method: 'HEAD' });
    assert.is(head.status, 200);
    assert.is(await head.text(), '');
  } finally {
    await close();
  }
});

/** POSTs `size` bytes to `/echo`; the status and the body of the answer. */
function postBytes(port: number, size: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/echo', headers: { 'content-length': size } }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(Buffer.alloc(size, 0x61));
  });
}

test("the bridge's own body cap is an option: none by default, 413 past maxBodyBytes for any handler", async () => {
  const echo: FetchHandler = { fetch: async (request) => new Response(String((await request.text()).length)) };
  await withServer(echo, async (port) => {
    assert.equal(await postBytes(port, 200_000), { status: 200, body: '200000' }, 'no cap of its own by default');
  });
  const errors: unknown[] = [];
  await withServer(
    echo,
    async (port) => {
      assert.equal(await postBytes(port, 1_000), { status: 200, body: '1000' });
      const over = await postBytes(port, 5_000);
      assert.is(over.status, 413);
      assert.equal(JSON.parse(over.body), { code: 'payload_too_large', message: 'the request body exceeds 1000 bytes', status: 413 });
      // Past the cap by what arrives after the read began (600 bytes, then 600 more): 413 too.
      const head = 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1200\r\n\r\n';
      assert.match(await raw(port, [head + 'a'.repeat(600), 'a'.repeat(600)]), /^HTTP\/1\.1 413 [^]*Connection: close/i);
    },
    { maxBodyBytes: 1_000, onError: (e: unknown) => void errors.push(e) },
  );
  assert.equal(errors, [], 'a body past the cap is not a handler failure');
});

test('one request builder: an absolute-form target gets the lazy Request too, with the URL new Request() would hold; no URL is a 400', async () => {
  const seen: { url: string; lazy: boolean; host: string | null; body: string }[] = [];
  const handler: FetchHandler = {
    fetch: async (request) => {
      // The lazy Request is not the platform class itself (its prototype only inherits from it).
      seen.push({
        url: request.url,
        lazy: Object.getPrototypeOf(request) !== Request.prototype,
        host: request.headers.get('host'),
        body: await request.text(),
      });
      return new Response(null, { status: 204 });
    },
  };
  await withServer(handler, async (port) => {
    const proxied = await raw(
      port,
      'POST http://Example.ORG:80/v1/./pets?a=1 HTTP/1.1\r\nHost: ignored.test\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi',
    );
    assert.match(proxied, /^HTTP\/1\.1 204 /);
    const plain = await raw(port, 'GET /v1/pets HTTP/1.1\r\nHost: a.test:8080\r\nConnection: close\r\n\r\n');
    assert.match(plain, /^HTTP\/1\.1 204 /);
    const badHost = await raw(port, 'GET /v1/pets HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n');
    assert.match(badHost, /^HTTP\/1\.1 400 /);
    assert.is((bodyOf(badHost) as { code: string }).code, 'invalid_request');
  });
  assert.equal(seen, [
    { url: new Request('http://Example.ORG:80/v1/./pets?a=1').url, lazy: true, host: 'ignored.test', body: 'hi' },
    { url: 'http://a.test:8080/v1/pets', lazy: true, host: 'a.test:8080', body: '' },
  ]);
});

test('the lazy Request answers every member of Request.prototype as the platform Request does', async () => {
  let seen: { key: string; lazy: string; real: string }[] = [];
  const handler: FetchHandler = {
    fetch: (request) => {
      const real = new Request(request.url, { method: request.method, headers: request.headers });
      const describe = (r: Request, key: string) => {
        const value = (r as unknown as Record<string, unknown>)[key];
        return typeof value === 'function'
          ? 'function'
          : key === 'headers'
            ? JSON.stringify([...(value as Headers)])
            : key === 'signal'
              ? 'signal'
              : JSON.stringify(value);
      };
      seen = Object.getOwnPropertyNames(Request.prototype)
        .filter((key) => key !== 'constructor')
        .map((key) => ({ key, lazy: describe(request, key), real: describe(real, key) }));
      return Promise.resolve(new Response(null, { status: 204 }));
    },
  };
  await withServer(handler, async (port) => {
    const answer = await raw(port, 'GET /x?y=1 HTTP/1.1\r\nHost: example.test\r\nX-A: 1\r\nConnection: close\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 204 /);
  });
  assert.ok(seen.length > 15, 'every member was compared');
  assert.equal(
    seen.filter((s) => s.lazy !== s.real),
    [],
  );
});

test('a store created with createResponse: nodeResponse answers in lazy Responses the bridge writes in one call', async () => {
  const store = createPetStore({ db: await sharedPGlite(), keys: [KEY], createResponse: nodeResponse });
  const seen: { bound: boolean; fast: boolean; status: number }[] = [];
  const handler: FetchHandler = {
    fetch: async (request) => {
      const response = await store.fetch(request);
      seen.push({
        bound: request instanceof Request && request.headers instanceof Headers,
        fast: NodeJsonResponse.untouched(response) !== undefined,
        status: response.status,
      });
      return response;
    },
  };
  await withServer(handler, async (port) => {
    assert.match(
      await raw(port, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`),
      /^HTTP\/1\.1 200 /,
    );
    assert.match(await raw(port, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), /^HTTP\/1\.1 401 /);
  });
  assert.equal(seen, [
    { bound: true, fast: true, status: 200 },
    { bound: true, fast: true, status: 401 },
  ]);
});

// The lazy Request's body (adapters/node/request.ts) against a platform Request's: the same bytes
// and the same rules by every way of reading it, the reading methods (which read the socket
// directly) and the stream alike.
test('the lazy request body reads as a platform Request body does, by every way of reading it', async () => {
  const body = JSON.stringify({ name: 'Rex', note: 'é'.repeat(3000) });
  const text = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString();
  const twice = async (request: Request, read: () => Promise<unknown>) => {
    const first = await read();
    const used = request.bodyUsed;
    const again = await read().then(
      () => 'read again',
      (error: Error) => error.name,
    );
    return { first, used, again };
  };
  const ways: Record<string, (request: Request) => Promise<unknown>> = {
    arrayBuffer: (r) => twice(r, async () => text(await r.arrayBuffer())),
    bytes: (r) =>
      twice(r, async () => {
        const bytes = await r.bytes();
        return [bytes instanceof Uint8Array, bytes.byteOffset, bytes.buffer.byteLength === bytes.byteLength, text(bytes)];
      }),
    text: (r) => twice(r, () => r.text()),
    json: (r) => twice(r, () => r.json()),
    'stream reader': async (r) => {
      const reader = r.body!.getReader();
      const parts: Uint8Array[] = [];
      for (let c = await reader.read(); !c.done; c = await reader.read()) parts.push(c.value);
      return [Buffer.concat(parts).toString(), r.bodyUsed];
    },
    'stream, then a reading method': async (r) => {
      const reader = r.body!.getReader();
      await reader.read();
      reader.releaseLock();
      return r.text().then(
        () => 'read',
        (error: Error) => error.name,
      );
    },
    'a reading method, then the stream': async (r) => {
      await r.text();
      return [r.bodyUsed, r.body?.locked];
    },
    'async iteration': async (r) => {
      const parts: Uint8Array[] = [];
      for await (const part of r.body as unknown as AsyncIterable<Uint8Array>) parts.push(part);
      return Buffer.concat(parts).toString();
    },
    'a copy (new Request with this body, as a proxy makes)': async (r) =>
      new Request('http://x/', { method: 'POST', body: r.body, duplex: 'half' } as RequestInit).text(),
  };
  const lazy: Record<string, unknown> = {};
  const handler: FetchHandler = {
    fetch: async (request) => {
      const key = new URL(request.url).searchParams.get('way')!; // `${way}/${delivery}`
      lazy[key] = await ways[key.slice(0, key.lastIndexOf('/'))]!(request);
      return new Response(null, { status: 204 });
    },
  };
  // Two deliveries: the body whole with its headers (read from what the parser already holds),
  // and split, most of it arriving only after the read began (read as it streams in).
  const deliveries = ['whole', 'split'] as const;
  await withServer(handler, async (port) => {
    for (const way of Object.keys(ways)) {
      for (const delivery of deliveries) {
        const head = `POST /x?way=${encodeURIComponent(`${way}/${delivery}`)} HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
        const parts = delivery === 'whole' ? [head + body] : [head + body.slice(0, 100), body.slice(100)];
        const answer = await raw(port, parts);
        assert.match(answer, /^HTTP\/1\.1 204 /, `${way}, ${delivery}: ${answer}`);
      }
    }
  });
  for (const [way, read] of Object.entries(ways)) {
    const platform = await read(new Request('http://x/', { method: 'POST', body }));
    for (const delivery of deliveries) assert.equal(lazy[`${way}/${delivery}`], platform, `${way}, ${delivery}`);
  }
});

test.run();
