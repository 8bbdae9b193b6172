// Wrong options fail at creation, synchronously, with a message that names the option and what to
// pass (issue 24 item 3), through the public entry points: createPetStore, createPostgresDatabase,
// createPGliteDatabase, createTestStore. What a user would mean is accepted: one key as a string.
import { ownPGlite } from './helpers/db.js';
import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../src/index.js';
import { createPostgresDatabase } from '../src/pg.js';
import { createPGliteDatabase } from '../src/pglite.js';
import { createTestDatabase, createTestStore } from '../src/testing.js';
import type { Database, PetStoreDatabase } from '../src/index.js';
import { createBrowserStore } from '../src/browser.js';
import { createWorker } from '../adapters/cloudflare.js';

const test = suite('options checked at creation');
let db: Awaited<ReturnType<typeof createTestDatabase>>;
test.before(async () => {
  db = await createTestDatabase();
});
test.after(() => db.destroy());

/** The message `fn` throws synchronously (fails the test when it throws nothing or returns a promise). */
function thrown(fn: () => unknown): string {
  try {
    const result = fn();
    if (result instanceof Promise) result.catch(() => {});
    assert.unreachable('expected a synchronous throw');
  } catch (error) {
    assert.instance(error, TypeError);
    return (error as Error).message;
  }
  return '';
}

test('db: a raw PGlite names PGlite and says to wrap it', async () => {
  const pglite = await ownPGlite();
  try {
    const message = thrown(() => createPetStore({ db: pglite as never, keys: ['k'] }));
    assert.match(message, 'createPetStore: options.db must be a Kysely instance or a PetStoreDatabase (got a PGlite)');
    assert.match(message, "createPGliteDatabase({ pglite })` from 'petstore-router/pglite'");
  } finally {
    await pglite.close();
  }
});

test('db: a pg.Pool, a pg.Client, a URL string, a forgotten await', async () => {
  const url = 'postgres://user:hunter2@127.0.0.1:1/nothing';
  const pool = new pg.Pool({ connectionString: url });
  let message = thrown(() => createPetStore({ db: pool as never, keys: ['k'] }));
  assert.match(message, 'options.db must be a Kysely instance or a PetStoreDatabase (got a pg.Pool)');
  assert.match(message, "createPostgresDatabase(pool)` from 'petstore-router/pg'");
  await pool.end();
  message = thrown(() => createPetStore({ db: new pg.Client({ connectionString: url }) as never, keys: ['k'] }));
  assert.match(message, '(got a pg.Client): pass a pg.Pool or a URL instead of a client');
  message = thrown(() => createPetStore({ db: url as never, keys: ['k'] }));
  assert.match(
    message,
    "(got a string): for a PostgreSQL URL pass `await createPostgresDatabase(process.env.DATABASE_URL)` from 'petstore-router/pg'",
  );
  assert.not.match(message, 'hunter2');
  const pending = createTestDatabase();
  message = thrown(() => createPetStore({ db: pending as never, keys: ['k'] }));
  assert.match(message, 'options.db must be a Kysely instance or a PetStoreDatabase (got a Promise): add await');
  await (await pending).destroy();
  assert.match(
    thrown(() => createPetStore({ keys: ['k'] } as never)),
    "(got undefined): pass `await createPGliteDatabase()` from 'petstore-router/pglite'",
  );
  assert.match(
    thrown(() => createPetStore(undefined as never)),
    'createPetStore: options must be an object { db, keys, ... } (got undefined)',
  );
});

test("keys: 'one-key' is a list of that key; other wrong keys name options.keys", async () => {
  const store = createPetStore({ db, keys: 'one-key' });
  const res = await store.fetch(new Request('http://x/v1/pets', { headers: { authorization: 'Bearer one-key' } }));
  assert.is(res.status, 200);
  const wrong = await store.fetch(new Request('http://x/v1/pets', { headers: { authorization: 'Bearer o' } }));
  assert.is(wrong.status, 401);
  assert.match(
    thrown(() => createPetStore({ db, keys: 42 as never })),
    'options.keys must be a key, a list of keys or a verifier',
  );
  assert.match(
    thrown(() => createPetStore({ db, keys: undefined as never })),
    'options.keys must be a key, a list of keys or a verifier (key, request) => boolean (got undefined)',
  );
  assert.match(
    thrown(() => createPetStore({ db, keys: 'a,b' })),
    'options.keys[0] must be a non-empty string of visible ASCII without commas',
  );
});

test('docs: true says where the renderer is', () => {
  const message = thrown(() => createPetStore({ db, keys: ['k'], docs: true as never }));
  assert.match(message, "options.docs must be apiReference() from 'petstore-router/docs', or false (got true)");
  assert.match(message, 'pass `docs: apiReference()`');
});

test('every other option of createPetStore is checked at creation', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ basePath: 1 }, "options.basePath must be a path such as '/v1'"],
    [
      { basePath: 'v1' },
      "createPetStore: options.basePath must be a path such as '/v1' (starting with '/', no ? # or space), or '' for the root (got a string)",
    ],
    [{ now: new Date() }, 'options.now must be a function returning a Date, e.g. () => new Date() (got a Date)'],
    [{ deprecatedAt: '2026-01-01' }, 'options.deprecatedAt must be a valid Date'],
    [{ sunsetAt: new Date('soon') }, 'options.sunsetAt must be a valid Date'],
    [{ idempotencyTtlMs: '1h' }, 'options.idempotencyTtlMs must be a positive number'],
    [{ idempotencyTtlMs: -1 }, 'options.idempotencyTtlMs must be a positive number'],
    [{ openapi: 'yes' }, 'options.openapi must be true, false or { servers: [{ url }] }'],
    [{ openapi: { servers: ['https://x'] } }, 'options.openapi must be true, false or { servers: [{ url }] } (got an object)'],
    [{ rateLimit: 100 }, 'options.rateLimit must be an object { limit, windowSeconds }'],
    [{ rateLimit: { limit: 0, windowSeconds: 1 } }, 'options.rateLimit.limit must be an integer of at least 1 (got 0)'],
    [{ onError: 'log' }, 'options.onError must be a function'],
    [{ health: 'on' }, 'options.health must be true, false or { draining: () => boolean, db }'],
    [{ health: { draining: true } }, 'options.health.draining must be a function () => boolean (got true)'],
    [{ health: { db: 'postgres://x' } }, 'options.health.db must be a Kysely instance'],
    [{ cors: { origins: [] } }, "createPetStore: options.cors.origins must be '*' or a non-empty list of origins (got an array)"],
    [
      { cors: { origins: ['https://a.example/'] } },
      'options.cors.origins[0] must be an origin as browsers send it (got "https://a.example/")',
    ],
    [{ cors: { origins: '*', maxAgeSeconds: -1 } }, 'options.cors.maxAgeSeconds must be a whole number of seconds, 0 or more (got -1)'],
    [
      { rateLimit: { limit: 1, windowSeconds: 0.5 } },
      'options.rateLimit.windowSeconds must be an integer of at least 1 (seconds) (got 0.5)',
    ],
    [{ concurrency: { limit: 0 } }, 'createPetStore: options.concurrency.limit must be a positive integer (got 0)'],
    [{ concurrency: { limit: 1, onShed: 1 } }, 'options.concurrency.onShed must be a function (request) => void (got 1)'],
    [{ schema: 'pg_x' }, 'createPetStore: options.schema must be a name not starting with pg_ (reserved by PostgreSQL) (got "pg_x")'],
    [{ openTelemetry: {} }, 'options.openTelemetry must be the @opentelemetry/api module'],
    [{ batchCreates: 1 }, 'options.batchCreates must be true or false (got 1)'],
    [{ keys: [] }, 'createPetStore: options.keys must be a list of at least one key (got an empty list)'],
    [{ keys: ['sha256:abc'] }, "options.keys[0] must be a key, or 'sha256:' and 64 hex digits (got sha256: and no 64 hex digits)"],
    [{ cors: true }, "options.cors must be an object { origins: ['https://app.example'] | '*' }"],
    [{ onResponse: {} }, 'options.onResponse must be a function'],
    [{ schema: '' }, 'options.schema must be a PostgreSQL schema name'],
  ];
  for (const [options, expected] of cases) {
    assert.match(
      thrown(() => createPetStore({ db, keys: ['k'], ...options })),
      expected,
      JSON.stringify(options),
    );
  }
});

test('a misspelled option (JavaScript) is a TypeError naming the closest valid one', () => {
  const error = (() => {
    try {
      createPetStore({ db, keys: ['k'], basepath: '/x' } as never);
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  assert.instance(error, TypeError);
  assert.is(
    (error as TypeError).message,
    'petstore-router: createPetStore: options.basepath is not an option (got a string): did you mean basePath?',
  );
  assert.match(
    thrown(() => createPetStore({ db, keys: ['k'], idempotencyTTL: 5 } as never)),
    'did you mean idempotencyTtlMs?',
  );
  assert.match(
    thrown(() => createPetStore({ db, key: 'k' } as never)),
    'options.key is not an option (got a string): did you mean keys?',
  );
  // Nothing near: the valid names are listed.
  assert.match(
    thrown(() => createPetStore({ db, keys: ['k'], colour: 'red' } as never)),
    'the options are db, schema, keys, basePath',
  );
  assert.match(
    thrown(() => createPostgresDatabase('postgres://h/db', { maxWait: 100 } as never)),
    'createPostgresDatabase: options.maxWait is not an option (got 100): did you mean maxWaitMs?',
  );
  assert.match(
    thrown(() => createPGliteDatabase({ datadir: './data' } as never)),
    'createPGliteDatabase: options.datadir is not an option (got a string): did you mean dataDir?',
  );
  // Nested options too, each named by its path.
  const nested: [Record<string, unknown>, string][] = [
    [{ cors: { origin: '*' } }, 'createPetStore: options.cors.origin is not an option (got a string): did you mean origins?'],
    [{ rateLimit: { limit: 1, windowSecond: 1 } }, 'options.rateLimit.windowSecond is not an option (got 1): did you mean windowSeconds?'],
    [{ concurrency: { limt: 4 } }, 'options.concurrency.limit is not an option'.replace('limit', 'limt') + ' (got 4): did you mean limit?'],
    [{ health: { drainng: () => false } }, 'options.health.drainng is not an option (got a function): did you mean draining?'],
    [{ openapi: { server: [] } }, 'options.openapi.server is not an option (got an array): did you mean servers?'],
  ];
  for (const [options, expected] of nested)
    assert.match(
      thrown(() => createPetStore({ db, keys: ['k'], ...options })),
      expected,
    );
});

test('the browser and Workers entries: unknown names and wrong values, in the same words', async () => {
  const refused = async (promise: Promise<unknown>, expected: string) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.instance(error, TypeError);
    assert.match((error as Error).message, expected);
  };
  await refused(
    createBrowserStore({ keys: ['k'], datadir: 'idb://x' } as never),
    'createBrowserStore: options.datadir is not an option (got a string): did you mean dataDir?',
  );
  await refused(createBrowserStore({ keys: ['k'], basepath: '/x' } as never), 'did you mean basePath?');
  await refused(
    createBrowserStore({ keys: ['k'], snapshot: 42 } as never),
    "createBrowserStore: options.snapshot must be the snapshot file's URL",
  );
  const pglite = await ownPGlite();
  try {
    await refused(
      createBrowserStore({ keys: ['k'], pglite, dataDir: 'idb://x' }),
      'createBrowserStore: options.dataDir must be absent with a PGlite of your own',
    );
  } finally {
    await pglite.close();
  }
  assert.match(
    thrown(() => createWorker('postgres://h/db' as never)),
    'createWorker: configure must be a function (env) => ({ database, keys, ... }) (got a string)',
  );
  const worker = (options: object) => createWorker(() => options as never).fetch(new Request('http://w/v1/pets'), {}, { waitUntil() {} });
  await refused(
    worker({ database: 'postgres://h/db', keys: ['k'], maxConection: 2 }),
    'createWorker: options.maxConection is not an option (got 2): did you mean maxConnections?',
  );
  await refused(
    worker({ keys: ['k'] }),
    'createWorker: options.database must be a PostgreSQL connection string (got undefined): e.g. env.HYPERDRIVE.connectionString',
  );
  await refused(
    worker({ database: 'postgres://h/db', keys: ['k'], maxConnections: 0 }),
    'options.maxConnections must be a positive whole number of connections (got 0)',
  );
});

test('db: a PetStoreDatabase that is not a Kysely (another driver) serves; a wrong member is named', async () => {
  const contract: PetStoreDatabase<Database> = {
    kysely: db,
    statements: undefined,
    reads: undefined,
    classify: () => undefined,
    close: () => Promise.resolve(),
  };
  const store = createPetStore({ db: contract, keys: ['k'] });
  const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
  const created = await store.fetch(new Request('http://x/v1/pets', { method: 'POST', headers, body: '{"name":"Rex","categoryId":1}' }));
  assert.is(created.status, 201);
  const listed = await store.fetch(new Request('http://x/v1/pets', { headers }));
  assert.equal(
    ((await listed.json()) as { name: string }[]).map((p) => p.name),
    ['Rex'],
  );
  assert.match(
    thrown(() => createPetStore({ db: { ...contract, close: undefined } as never, keys: ['k'] })),
    'createPetStore: options.db.close must be a function () => Promise<void> (got undefined)',
  );
  assert.match(
    thrown(() => createPetStore({ db: { ...contract, kysely: 'x' } as never, keys: ['k'] })),
    'options.db.kysely must be a Kysely instance (the primary)',
  );
  assert.match(
    thrown(() => createPetStore({ db: { ...contract, statements: {} } as never, keys: ['k'] })),
    'options.db.statements must be undefined or a StatementRunner { run }',
  );
});

test('createPostgresDatabase: undefined, another scheme, not a URL, wrong options throw synchronously', () => {
  assert.match(
    thrown(() => createPostgresDatabase(undefined as never)),
    'createPostgresDatabase: source must be a PostgreSQL URL (postgres://user:password@host:5432/database), a pg.PoolConfig or a pg.Pool (got undefined): is DATABASE_URL set?',
  );
  assert.match(
    thrown(() => createPostgresDatabase('')),
    '(got an empty string): is DATABASE_URL set',
  );
  const mysql = thrown(() => createPostgresDatabase('mysql://root:hunter2@localhost/db'));
  assert.match(mysql, 'source must be a postgres:// or postgresql:// URL (got a mysql: URL)');
  assert.not.match(mysql, 'hunter2');
  assert.match(
    thrown(() => createPostgresDatabase('not a url')),
    '(got a string): the string is not a URL',
  );
  assert.match(
    thrown(() => createPostgresDatabase({ connectionString: 'redis://x' })),
    'config.connectionString must be a postgres://',
  );
  assert.match(
    thrown(() => createPostgresDatabase(db as never)),
    '(got a Kysely instance): it is a database already',
  );
  assert.match(
    thrown(() => createPostgresDatabase('postgres://h/db', { migrate: 'no' as never })),
    'options.migrate must be true or false',
  );
  assert.match(
    thrown(() => createPostgresDatabase('postgres://h/db', { preparedStatements: 0 as never })),
    'options.preparedStatements must be true or false',
  );
  assert.match(
    thrown(() => createPostgresDatabase('postgres://h/db', { sessionStatementTimeout: 'off' as never })),
    'options.sessionStatementTimeout must be true or false',
  );
});

test('createPGliteDatabase: a path alone, a wrong dataDir, pglite or migrate throw synchronously', () => {
  assert.match(
    thrown(() => createPGliteDatabase('./data' as never)),
    'createPGliteDatabase: options must be an object { dataDir?, pglite?, migrate? } (got a string): for a data directory pass `{ dataDir: path }`',
  );
  assert.match(
    thrown(() => createPGliteDatabase({ dataDir: 1 as never })),
    'options.dataDir must be a directory path',
  );
  assert.match(
    thrown(() => createPGliteDatabase({ pglite: db as never })),
    'options.pglite must be a PGlite instance',
  );
  assert.match(
    thrown(() => createPGliteDatabase({ migrate: 'yes' as never })),
    'options.migrate must be true or false',
  );
});

test('createTestStore: a db or schema of your own is refused; one key as a string works', async () => {
  for (const name of ['db', 'schema']) {
    try {
      await createTestStore({ [name]: name === 'db' ? db : 'mine' });
      assert.unreachable('expected a throw');
    } catch (error) {
      assert.match((error as Error).message, `createTestStore: options.${name} must be absent (a test store makes its own database)`);
    }
  }
  const store = await createTestStore({ keys: 'mine' });
  try {
    assert.is(store.key, 'mine');
    assert.is((await store.fetch(new Request('http://x/v1/pets', { headers: { authorization: 'Bearer mine' } }))).status, 200);
  } finally {
    await store.close();
  }
});

// The adapters' options, in the same words (src/options/node.ts, fastify.ts, msw.ts).
const fetchHandler = { fetch: () => new Response('') };

test('petstore-router/node: createNodeHandler and serve, wrong values and misspelled names', async () => {
  const { createNodeHandler, serve } = await import('../adapters/node.js');
  assert.is(
    thrown(() => createNodeHandler(fetchHandler, { bodyTimeout: 0 })),
    'petstore-router: createNodeHandler: options.bodyTimeout must be a number of milliseconds (above 0, or Infinity) (got 0)',
  );
  assert.match(
    thrown(() => createNodeHandler(fetchHandler, { batchWrites: 'yes' as never })),
    'options.batchWrites must be true or false (got a string)',
  );
  assert.match(
    thrown(() => createNodeHandler(fetchHandler, { maxBodyBytes: -1 })),
    'options.maxBodyBytes must be a number of bytes',
  );
  assert.match(
    thrown(() => createNodeHandler(fetchHandler, { minBodyBytesPerSecond: Infinity })),
    'options.minBodyBytesPerSecond must be',
  );
  assert.is(
    thrown(() => createNodeHandler(fetchHandler, { bodytimeout: 10 } as never)),
    'petstore-router: createNodeHandler: options.bodytimeout is not an option (got 10): did you mean bodyTimeout?',
  );
  // serve's own names are not createNodeHandler's
  assert.match(
    thrown(() => createNodeHandler(fetchHandler, { port: 1 } as never)),
    'options.port is not an option',
  );
  const rejected = async (options: object) => {
    const error = await serve(fetchHandler, options as never).then(
      (served) => served.close().then(() => assert.unreachable('served')),
      (e: unknown) => e,
    );
    assert.instance(error, TypeError);
    return (error as Error).message;
  };
  assert.is(await rejected({ prot: 0 }), 'petstore-router: serve: options.prot is not an option (got 0): did you mean port?');
  assert.match(await rejected({ port: 70_000 }), 'serve: options.port must be a port (0 to 65535; 0 picks a free one) (got 70000)');
  assert.match(await rejected({ host: '' }), 'serve: options.host must be an address');
  assert.match(await rejected({ bodyTimeout: -5 }), 'serve: options.bodyTimeout must be a number of milliseconds');
  assert.match(
    await rejected({ requestTimeout: 5_000 }),
    'serve: options.requestTimeout must be 0 or at least headersTimeout (10000) (got 5000)',
  );
});

test('petstore-router/fastify: no store, a misspelled name, a prefix the base path is not under', async () => {
  const { default: Fastify } = await import('fastify');
  const { petStorePlugin } = await import('../adapters/fastify.js');
  const store = createPetStore({ db, keys: ['k'], basePath: '/api/v1' });
  const registered = async (options: object) => {
    const app = Fastify();
    try {
      await app.register(petStorePlugin, options as never);
      assert.unreachable('registered');
    } catch (error) {
      assert.instance(error, TypeError);
      return (error as Error).message;
    } finally {
      await app.close();
    }
    return '';
  };
  assert.is(
    await registered({ store: fetchHandler }),
    'petstore-router: petStorePlugin: options.store must be a store (createPetStore(...), createBrowserStore(...) or the .store of createTestStore()) (got an object): app.register(petStorePlugin, { store: createPetStore(...) })',
  );
  assert.is(
    await registered({ store, prefx: '/api' }),
    'petstore-router: petStorePlugin: options.prefx is not an option (got a string): did you mean prefix?',
  );
  assert.match(
    await registered({ store, prefix: '/other' }),
    'petStorePlugin: the prefix must be the start of the store\'s basePath "/api/v1" (got "/other")',
  );
});

test('petstore-router/msw: not a store, a misspelled name, a wrong baseUrl', async () => {
  const { createHandlers } = await import('../adapters/msw.js');
  const store = createPetStore({ db, keys: ['k'] });
  assert.match(
    thrown(() => createHandlers(fetchHandler as never, { baseUrl: 'https://x.test' })),
    'petstore-router: createHandlers: store must be a store (',
  );
  assert.is(
    thrown(() => createHandlers(store, { baseURL: 'https://x.test' } as never)),
    'petstore-router: createHandlers: options.baseURL is not an option (got a string): did you mean baseUrl?',
  );
  assert.is(
    thrown(() => createHandlers(store, { baseUrl: '/api' })),
    'petstore-router: createHandlers: options.baseUrl must be an absolute URL without query or fragment (got "/api"): e.g. { baseUrl: \'https://api.example.com\' }',
  );
  assert.match(
    thrown(() => createHandlers(store, undefined as never)),
    'createHandlers: options must be an object { baseUrl } (got undefined)',
  );
});

test('petstore-router/deno and /bun: not a store, a misspelled name, a wrong value, before the runtime is asked', async () => {
  const { serve: serveDeno } = await import('../adapters/deno.js');
  const { serve: serveBun } = await import('../adapters/bun.js');
  const store = createPetStore({ db, keys: ['k'] });
  assert.match(
    thrown(() => serveDeno(fetchHandler as never)),
    'petstore-router: deno serve: store must be a store (',
  );
  assert.is(
    thrown(() => serveDeno(store, { hostName: '0.0.0.0' } as never)),
    'petstore-router: deno serve: options.hostName is not an option (got a string): did you mean hostname?',
  );
  assert.is(
    thrown(() => serveDeno(store, { port: '8080' } as never)),
    'petstore-router: deno serve: options.port must be a port (0 to 65535; 0 picks a free one) (got a string)',
  );
  assert.match(
    thrown(() => serveDeno(store, { signal: {} } as never)),
    'deno serve: options.signal must be an AbortSignal',
  );
  assert.is(
    thrown(() => serveBun(store, { idleTimeout: 300 })),
    'petstore-router: bun serve: options.idleTimeout must be a whole number of seconds (0 to 255) (got 300)',
  );
  assert.is(
    thrown(() => serveBun(store, { signal: new AbortController().signal } as never)),
    'petstore-router: bun serve: options.signal is not an option (got an AbortSignal): the options are port, hostname, idleTimeout',
  );
  // Right options reach the runtime check: off Deno and Bun, that is the error.
  assert.throws(() => serveDeno(store, { port: 0, hostname: '::', onListen: () => {} }), /Deno\.serve is not available/);
  assert.throws(() => serveBun(store, { port: 0, idleTimeout: 255 }), /Bun\.serve is not available/);
});

test('petstore-router/express: not a store is named at once', async () => {
  const { petStoreExpress } = await import('../adapters/express.js');
  assert.match(
    thrown(() => petStoreExpress(undefined as never)),
    'petstore-router: petStoreExpress: store must be a store (createPetStore(...), createBrowserStore(...) or the .store of createTestStore()) (got undefined): app.use(petStoreExpress(createPetStore(...)))',
  );
});

test.run();
