import { sql } from 'kysely';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addOrder, createPetStore } from 'petstore-router';
import { createPostgresDatabase } from 'petstore-router/pg';
import { listOrders } from '../src/storage/orders.js';
import { resetDatabase } from './helpers/db.js';
import { KEY } from './helpers/harness.js';
import { postgresTest } from './helpers/postgres-test.js';

/**
 * Order ids past 2^53 through a caller's own `pg.Pool`, which keeps pg's default int8 parser
 * (strings): exact from `addOrder`, in storage pages and their `afterId`, and in the HTTP answer
 * and its `Link` pagination. None of the ids below has an exact double.
 */
const PET = 9223372036854775807n; // 2^63 - 1
const FIRST = 9007199254740993n; // 2^53 + 1: as a double it would be 2^53
const SECOND = 9007199254740995n; // 2^53 + 3: as a double it would be 2^53 + 4
const LAST = 9223372036854775806n;

postgresTest(test, "PostgreSQL, a caller's own pg.Pool: order ids past 2^53 are exact in storage and over HTTP", async (url) => {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const db = await createPostgresDatabase(pool);
  try {
    await resetDatabase(db);
    await db.insertInto('petstore_pets').values({ id: PET, name: 'max', category_id: 1n, status: 'sold' }).execute();
    await sql`select setval(pg_get_serial_sequence('petstore_orders', 'id'), ${(FIRST - 1n).toString()}::int8)`.execute(db);
    const first = await addOrder(db, { petId: PET, quantity: 1 });
    assert.equal(first, { id: FIRST, petId: PET, quantity: 1, status: 'placed', complete: false });
    await db.insertInto('petstore_orders').values({ id: SECOND, pet_id: PET, quantity: 2, status: 'approved', complete: true }).execute();
    await db.insertInto('petstore_orders').values({ id: LAST, pet_id: PET, quantity: 3, status: 'delivered', complete: true }).execute();
    const raw = await pool.query('select id from petstore_orders order by id');
    assert.equal(
      raw.rows.map((r) => r.id),
      [String(FIRST), String(SECOND), String(LAST)],
      "the pool keeps pg's string int8 parser",
    );

    // Storage (the int64 rule of model.ts, as for pets): bigint parameters in, canonical decimal
    // text out; every id exact, and an afterId past 2^53 is not rounded (2^53 would list FIRST again).
    const all = await listOrders(db, { limit: 10 });
    assert.equal(
      all.items.map((o) => [o.id, o.petId]),
      [
        [String(FIRST), String(PET)],
        [String(SECOND), String(PET)],
        [String(LAST), String(PET)],
      ],
    );
    const after = await listOrders(db, { limit: 1, afterId: FIRST });
    assert.equal(
      after.items.map((o) => o.id),
      [String(SECOND)],
    );
    assert.is(after.hasMore, true);

    // HTTP: the exact integers in the JSON text, page by page through Link.
    const store = createPetStore({ db, keys: [KEY] });
    const get = (path: string) => store.fetch(new Request(`http://petstore.test${path}`, { headers: { authorization: `Bearer ${KEY}` } }));
    const pages: string[] = [];
    let next: string | undefined = '/v1/store/orders?limit=1';
    while (next) {
      const res = await get(next);
      assert.is(res.status, 200);
      pages.push(await res.text());
      next = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1]?.replace('http://petstore.test', '');
    }
    assert.equal(pages, [
      `[{"id":${FIRST},"petId":${PET},"quantity":1,"status":"placed","complete":false}]`,
      `[{"id":${SECOND},"petId":${PET},"quantity":2,"status":"approved","complete":true}]`,
      `[{"id":${LAST},"petId":${PET},"quantity":3,"status":"delivered","complete":true}]`,
    ]);
  } finally {
    await resetDatabase(db);
    await db.destroy();
    await pool.end();
  }
});

test.run();
