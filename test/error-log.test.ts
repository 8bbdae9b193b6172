import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../src/index.js';
import { createPostgresDatabase } from '../src/pg.js';
import { sharedPGlite } from './helpers/db.js';
import { KEY, ORIGIN } from './helpers/harness.js';
import { postgresTest } from './helpers/postgres-test.js';

/** Every line the store's default onError writes to console.error while `fn` runs. */
async function consoleLines(fn: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) =>
    void lines.push(args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' '));
  try {
    await fn();
  } finally {
    console.error = original;
  }
  return lines;
}

const list = () => new Request(`${ORIGIN}/v1/pets`, { headers: { authorization: `Bearer ${KEY}` } });

async function hundredRequests(store: ReturnType<typeof createPetStore>, code: string) {
  for (let i = 0; i < 100; i++) {
    const res = await store.fetch(list());
    assert.is(res.status, 503);
    assert.is(((await res.json()) as { code: string }).code, code);
  }
}

test('an unmigrated database (PGlite, a schema never migrated): 100 requests log one line naming the fix, no stack', async () => {
  const store = createPetStore({ db: await sharedPGlite(), schema: 'never_migrated', keys: [KEY] });
  const lines = await consoleLines(() => hundredRequests(store, 'database_not_migrated'));
  assert.ok(lines.length >= 1 && lines.length <= 2, lines.join('\n'));
  for (const line of lines) {
    assert.match(line, /petstore-router migrate --database URL/);
    assert.not.match(line, /\n\s+at /, 'no stack trace');
  }
});

postgresTest(
  test,
  'PostgreSQL: an unmigrated database and a refused password each log at most 2 lines for 100 requests, naming the fix',
  async (url) => {
    const db = await createPostgresDatabase(url, { migrate: false });
    try {
      const store = createPetStore({ db, schema: 'never_migrated', keys: [KEY] });
      const lines = await consoleLines(() => hundredRequests(store, 'database_not_migrated'));
      assert.ok(lines.length >= 1 && lines.length <= 2, lines.join('\n'));
      for (const line of lines) assert.match(line, /run `petstore-router migrate --database URL`/);
    } finally {
      await db.destroy();
    }
    const wrong = new URL(url);
    wrong.password = 'not-the-password';
    const refused = await createPostgresDatabase(wrong.href, { migrate: false });
    try {
      const store = createPetStore({ db: refused, keys: [KEY] });
      const lines = await consoleLines(() => hundredRequests(store, 'service_unavailable'));
      assert.ok(lines.length >= 1 && lines.length <= 2, lines.join('\n'));
      for (const line of lines) {
        assert.match(line, /refused the login \(28P01\): check the user and password of the database URL/);
        assert.not.match(line, /not-the-password/, 'the password is never logged');
      }
    } finally {
      await refused.destroy();
    }
  },
);

test('an unexpected error is logged whole, with its stack and request id, every time', async () => {
  const store = createPetStore({
    db: await sharedPGlite(),
    keys: async () => {
      throw new Error('a bug in the verifier');
    },
  });
  const lines = await consoleLines(async () => {
    for (let i = 0; i < 3; i++) assert.is((await store.fetch(list())).status, 500);
  });
  assert.is(lines.length, 3);
  for (const line of lines) assert.match(line, /GET \/v1\/pets failed \(request [0-9a-f-]+\):.*a bug in the verifier\n\s+at /s);
});

test.run();
