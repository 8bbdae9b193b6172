import type { AddressInfo } from 'node:net';
import express from 'express';
import { createPetStore, type PetStore } from 'petstore-router';
import { petStoreExpress } from 'petstore-router/express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resetDatabase, sharedPGlite } from './helpers/db.js';

const KEY = 'express-key-0123456789';
const auth = { authorization: `Bearer ${KEY}` };

/** Starts `app` on a free loopback port; returns its origin and a close function. */
async function listen(app: express.Express): Promise<{ origin: string; close(): Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** fetch that fails instead of hanging: a request stuck on a consumed body is the bug we guard. */
function get(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
}

const test = suite('express adapter');
let store: PetStore;

test.before(async () => {
  // Issue 24 item 2: the base path is the public one; the adapter hands the store the client's URL.
  store = createPetStore({ db: await sharedPGlite(), keys: [KEY], basePath: '/api/v1' });
});
test.before.each(async () => resetDatabase(await sharedPGlite()));

for (const mountPath of ['', '/api']) {
  test(`mounted at ${JSON.stringify(mountPath || '/')}: /api/v1/... reaches the store, Location carries /api/v1, /v1/... does not`, async () => {
    const app = express();
    if (mountPath) app.use(mountPath, petStoreExpress(store));
    else app.use(petStoreExpress(store));
    const server = await listen(app);
    try {
      const res = await get(`${server.origin}/api/v1/pets`, { headers: auth });
      assert.is(res.status, 200);
      assert.equal(await res.json(), []);
      const created = await get(`${server.origin}/api/v1/pets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 7 }),
      });
      assert.is(created.status, 201);
      assert.is(created.headers.get('location'), `${server.origin}/api/v1/pets/${(await created.json()).id}`);
      const outside = await get(`${server.origin}/v1/pets`, { headers: auth });
      assert.is(outside.status, 404);
      assert.not.match(outside.headers.get('content-type') ?? '', /json/, 'Express answered, not the store');
    } finally {
      await server.close();
    }
  });
}

test('mounted on a path outside the base path: one clear warning naming the basePath to use, then next()', async () => {
  const app = express();
  app.use('/api', petStoreExpress(createPetStore({ db: await sharedPGlite(), keys: [KEY] }))); // basePath /v1
  const server = await listen(app);
  const logged = console.error;
  const lines: string[] = [];
  console.error = (line: string) => void lines.push(line);
  try {
    assert.is((await get(`${server.origin}/api/v1/pets`, { headers: auth })).status, 404);
    assert.is((await get(`${server.origin}/api/v1/pets`, { headers: auth })).status, 404);
  } finally {
    console.error = logged;
    await server.close();
  }
  assert.is(lines.length, 1, 'once');
  assert.match(lines[0]!, /mounted at "\/api", outside the store's basePath "\/v1".*basePath: "\/api\/v1"/);
});

test('outside the base path, next() lets the host app answer', async () => {
  const app = express();
  app.use('/api', petStoreExpress(store));
  app.get('/api/health', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/about', (_req, res) => {
    res.send('host');
  });
  const server = await listen(app);
  try {
    assert.equal(await (await get(`${server.origin}/api/health`)).json(), { ok: true });
    assert.is(await (await get(`${server.origin}/about`)).text(), 'host');
    // `/api/v1x` is not under the base path `/api/v1` either.
    assert.is((await get(`${server.origin}/api/v1x`)).status, 404);
  } finally {
    await server.close();
  }
});

test('a 404 inside the base path comes from the store, with the Error body', async () => {
  const app = express();
  app.use('/api', petStoreExpress(store));
  const server = await listen(app);
  try {
    const res = await get(`${server.origin}/api/v1/nothing-here`, { headers: auth });
    assert.is(res.status, 404);
    const body = await res.json();
    assert.is(body.code, 'not_found');
    assert.is(body.status, 404);
  } finally {
    await server.close();
  }
});

for (const [label, parser] of [
  ['express.json()', express.json()],
  ['express.text({ type: "*/*" })', express.text({ type: '*/*' })],
  ['express.raw({ type: "*/*" })', express.raw({ type: '*/*' })],
] as const) {
  test(`${label} mounted before it: no hang, a 500 body_already_parsed that says why, logged once`, async () => {
    const app = express();
    app.use(parser);
    app.use(petStoreExpress(store));
    const server = await listen(app);
    const logged = console.error;
    const lines: string[] = [];
    console.error = (line: string) => void lines.push(line);
    try {
      for (let i = 0; i < 2; i++) {
        const res = await get(`${server.origin}/api/v1/pets`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', 'x-request-id': `req-${i}` },
          body: JSON.stringify({ name: 'Rex', categoryId: 7 }),
        });
        assert.is(res.status, 500);
        assert.is(res.headers.get('x-request-id'), `req-${i}`);
        const body = await res.json();
        assert.is(body.code, 'body_already_parsed');
        assert.is(body.status, 500);
        assert.match(
          body.message,
          /already read by a body parser mounted before petStoreExpress \(express\.json\(\).*mount petStoreExpress\(store\) before body parsers/,
        );
      }
      // A request without a body is not affected by the parser.
      assert.is((await get(`${server.origin}/api/v1/pets`, { headers: auth })).status, 200);
    } finally {
      console.error = logged;
      await server.close();
    }
    assert.is(lines.length, 1, 'logged once');
    assert.match(lines[0]!, /^petstore-router: the request body was already read/);
  });
}

test('without a body parser the bytes stream through exactly (int64 beyond 2^53)', async () => {
  const app = express();
  app.use('/api', petStoreExpress(store));
  const server = await listen(app);
  try {
    const res = await get(`${server.origin}/api/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Big","categoryId":9007199254740993}',
    });
    assert.is(res.status, 201);
    assert.match(await res.text(), /"categoryId":9007199254740993/);
  } finally {
    await server.close();
  }
});

test('pagination Link keeps the prefix; HEAD has headers and no body', async () => {
  const app = express();
  app.use('/api', petStoreExpress(store));
  const server = await listen(app);
  try {
    for (const name of ['a', 'b']) {
      const created = await get(`${server.origin}/api/v1/pets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
      assert.is(created.status, 201);
    }
    const page = await get(`${server.origin}/api/v1/pets?limit=1`, { headers: auth });
    assert.is(page.status, 200);
    const next = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
    assert.ok(next?.startsWith(`${server.origin}/api/v1/pets?`), `next link: ${next}`);
    const second = await get(next!, { headers: auth });
    assert.is((await second.json())[0].name, 'b');
    const head = await get(`${server.origin}/api/v1/pets`, { method: 'HEAD', headers: auth });
    assert.is(head.status, 200);
    assert.is(await head.text(), '');
  } finally {
    await server.close();
  }
});

test('several Authorization headers all reach the store (401)', async () => {
  const app = express();
  app.use(petStoreExpress(store));
  const server = await listen(app);
  try {
    const { connect } = await import('node:net');
    const { port } = new URL(server.origin);
    const status = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.end(
          `GET /api/v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
        );
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text.split(' ', 2)[1] ?? ''));
      socket.on('error', reject);
    });
    assert.is(status, '401');
  } finally {
    await server.close();
  }
});

test('status, headers and several Set-Cookie reach Express response as sent', async () => {
  const fake: PetStore = {
    basePath: '/v1',
    fetch: async () =>
      new Response('teapot', {
        status: 418,
        headers: [
          ['set-cookie', 'a=1; Path=/'],
          ['set-cookie', 'b=2; Path=/'],
          ['x-extra', 'yes'],
        ],
      }),
  };
  const app = express();
  app.use(petStoreExpress(fake));
  const server = await listen(app);
  try {
    const res = await get(`${server.origin}/v1/anything`);
    assert.is(res.status, 418);
    assert.equal(res.headers.getSetCookie(), ['a=1; Path=/', 'b=2; Path=/']);
    assert.is(res.headers.get('x-extra'), 'yes');
    assert.is(await res.text(), 'teapot');
  } finally {
    await server.close();
  }
});

test('a throwing store: 500 with the Error body, never a hung socket', async () => {
  const fake: PetStore = {
    basePath: '/v1',
    fetch: async () => {
      throw new Error('boom');
    },
  };
  const app = express();
  app.use(petStoreExpress(fake));
  const server = await listen(app);
  const logged = console.error;
  console.error = () => {};
  try {
    const res = await get(`${server.origin}/v1/pets`);
    assert.is(res.status, 500);
    const body = await res.json();
    assert.is(body.code, 'internal_error');
    assert.not.match(JSON.stringify(body), /boom/);
  } finally {
    console.error = logged;
    await server.close();
  }
});

test.run();
