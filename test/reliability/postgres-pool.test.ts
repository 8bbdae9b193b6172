import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../../src/index.js';
import { createPostgresDatabase } from '../../src/pg.js';
import { classifyDatabaseError } from '../../src/drivers/classify.js';
import { sleep, within } from './helpers/load.js';
import { freshDatabase } from './helpers/postgres.js';
import { postgresTest } from '../helpers/postgres-test.js';
import { startProxy } from './helpers/proxy.js';
import { KEY } from './helpers/server.js';
import { pgbouncerUrl } from '../helpers/db.js';

postgresTest(
  test,
  "the pool's sessions run under the statement timeout where the server takes it as a startup parameter; through PgBouncer (which refuses it) nothing is refused and the session keeps the server's",
  async (url) => {
    const bouncer = pgbouncerUrl();
    const pooled = bouncer && new URL(bouncer);
    if (pooled) pooled.pathname = new URL(url).pathname;
    for (const [where, source, expected] of [
      ['PostgreSQL', url, 'client'],
      ...(pooled ? [['PgBouncer', pooled.toString(), undefined] as const] : []),
    ] as const) {
      const db = await createPostgresDatabase({ connectionString: source, statement_timeout: 4_000 }, { migrate: false });
      try {
        // 'client' when the connection set it at startup; else where the server's value comes from.
        const { rows } = await sql<{
          source: string;
          setting: string;
        }>`select source, setting from pg_settings where name = 'statement_timeout'`.execute(db);
        if (expected) assert.equal(rows[0], { source: 'client', setting: '4000' }, where);
        else assert.is.not(rows[0]!.source, 'client', where);
      } finally {
        await db.destroy();
      }
    }
  },
);

// The driver's statement timeout (one timer per pool, src/drivers/pg/timeout.ts) and its plain
// form, pg's own query_timeout (the bench's `statement-deadlines` switch): the same observable behaviour.
for (const [form, timeout] of [
  ["the driver's statement timeout", { statement_timeout: 1_000 }],
  ["pg's own query_timeout (the plain form)", { statement_timeout: false, query_timeout: 1_000 }],
] as const) {
  postgresTest(
    test,
    `a slow query is cut by ${form} (here 1 s): its connection is dropped, the API answers 503 + Retry-After`,
    async (url) => {
      const target = await freshDatabase(url, 'slow');
      const db = await createPostgresDatabase({ connectionString: target.url, ...timeout, max: 2 });
      const locker = await createPostgresDatabase(target.url, { migrate: false });
      try {
        let started = performance.now();
        const error = await sql`select pg_sleep(5)`.execute(db).then(
          () => undefined,
          (e: unknown) => e,
        );
        const sleptMs = performance.now() - started;
        assert.ok(classifyDatabaseError(error) !== undefined, 'answered as busy (503), not as a bug (500)');
        assert.ok(sleptMs < 3_000, `pg_sleep(5) was cut after ${Math.round(sleptMs)} ms`);

        // Through the API: a lock held elsewhere stalls every query on the table.
        const store = createPetStore({ db, keys: [KEY], onError: () => {} });
        const get = () => store.fetch(new Request('http://petstore.test/v1/pets', { headers: { authorization: `Bearer ${KEY}` } }));
        await locker.connection().execute(async (conn) => {
          await sql`begin`.execute(conn);
          await sql`lock table petstore_pets in access exclusive mode`.execute(conn);
          // Twice the pool's size: a stalled query must not keep its connection after the timeout.
          for (let i = 0; i < 4; i++) {
            started = performance.now();
            const res = await within(get(), 5_000, 'GET /pets while the table is locked');
            const ms = performance.now() - started;
            assert.is(res.status, 503);
            assert.match(res.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
            assert.is(((await res.json()) as { code: string }).code, 'service_unavailable');
            assert.ok(ms < 3_000, `answered after ${Math.round(ms)} ms`);
          }
          await sql`rollback`.execute(conn);
        });
        assert.is((await within(get(), 5_000, 'GET /pets after the lock')).status, 200, 'the pool works again');
      } finally {
        await locker.destroy();
        await db.destroy();
        await target.drop();
      }
    },
  );
}

postgresTest(
  test,
  'a statement past the timeout on a connection that hangs: 503 at the timeout, the connection is dropped, the pool works on',
  async (url) => {
    const target = new URL(url);
    const proxy = await startProxy(target.hostname, Number(target.port || 5432));
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const db = await createPostgresDatabase({ connectionString: proxied.toString(), statement_timeout: 500, max: 1 }, { migrate: false });
    try {
      await sql`select 1`.execute(db); // the pool's one connection is open before the proxy stops forwarding new ones
      proxy.stallNew(); // no new connection gets through until restored
      const started = performance.now();
      const error = await sql`select pg_sleep(4)`.execute(db).then(
        () => undefined,
        (e: unknown) => e,
      );
      const ms = performance.now() - started;
      assert.ok(classifyDatabaseError(error) !== undefined, `a 503, not a 500: ${String(error)}`);
      assert.ok(ms > 400 && ms < 2_000, `failed after ${Math.round(ms)} ms (timeout 500 ms)`);
      await proxy.restore();
      const { rows } = await within(sql<{ one: number }>`select 1 as one`.execute(db), 10_000, 'a query after the abandon');
      assert.is(rows[0]!.one, 1, 'the pool opened a new connection');
    } finally {
      await db.destroy();
      await proxy.close();
    }
  },
);

postgresTest(test, 'a connection lost while checked out between two queries does not crash the process (regression)', async (url) => {
  const target = new URL(url);
  const proxy = await startProxy(target.hostname, Number(target.port || 5432));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  const db = await createPostgresDatabase(proxied.toString());
  try {
    // Before the fix, pg emitted 'error' on the lent client with no listener: the process died here.
    await db.connection().execute(async (conn) => {
      await sql`select 1`.execute(conn);
      await proxy.cut();
      await sleep(200);
      const error = await sql`select 1`.execute(conn).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(classifyDatabaseError(error) !== undefined, `a 503, not a 500: ${String(error)}`);
    });
    await proxy.restore();
    const { rows } = await within(sql<{ one: number }>`select 1 as one`.execute(db), 10_000, 'a query after the restore');
    assert.is(rows[0]!.one, 1, 'the pool dropped the dead client and connected again');
  } finally {
    await db.destroy();
    await proxy.close();
  }
});

test.run();
