import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../src/index.js';
import { createPostgresDatabase } from '../src/pg.js';
import { createPGliteDatabase } from '../src/pglite.js';
import { KEY } from './helpers/harness.js';
import { postgresTest } from './helpers/postgres-test.js';

// The rate limiter's counts come back right whatever row mode the driver answers in: our own
// pools answer the store's statements with array rows, a caller's own pg.Pool (or Kysely) with
// object rows keyed by the statement's column names, where the window start is the text it selects.

const WINDOW = 60;
const get = () => new Request('http://x/v1/pets', { headers: { authorization: `Bearer ${KEY}` } });

async function assertHeaders(store: ReturnType<typeof createPetStore>): Promise<void> {
  const res = await store.fetch(get());
  assert.is(res.status, 200);
  const limit = /^"default";r=(\d+);t=(\d+)$/.exec(res.headers.get('ratelimit') ?? '');
  assert.ok(limit, String(res.headers.get('ratelimit')));
  assert.ok(Number(limit[2]) >= 1 && Number(limit[2]) <= WINDOW, `t=${limit[2]} lies within the window`);
}

postgresTest(test, "a caller's own pg.Pool (object rows): RateLimit's t lies within the window", async (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const db = await createPostgresDatabase(pool);
  try {
    await assertHeaders(createPetStore({ db, keys: [KEY], rateLimit: { limit: 5, windowSeconds: WINDOW } }));
  } finally {
    await db.destroy();
    await pool.end();
  }
});

test("PGlite (array rows): RateLimit's t lies within the window", async () => {
  const db = await createPGliteDatabase();
  try {
    await assertHeaders(createPetStore({ db, keys: [KEY], rateLimit: { limit: 5, windowSeconds: WINDOW } }));
  } finally {
    await db.destroy();
  }
});

test.run();
