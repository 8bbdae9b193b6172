import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postgresTest } from '../helpers/postgres-test.js';
import { send, within } from './helpers/load.js';
import { freshDatabase } from './helpers/postgres.js';
import { startServer, stopGracefully } from './helpers/server.js';

/**
 * Health has a connection of its own: with every connection of the server's pool held by API
 * requests (they wait on a table another session locked) and more requests queued for one, the
 * probe still answers 200 within its 1 s bound, instead of queueing behind them and failing.
 */
postgresTest(test, 'health answers 200 within 1 s while API requests hold every pooled connection', async (url) => {
  const db = await freshDatabase(url, 'healthconn');
  const server = await startServer(['--database', db.url]);
  const locker = new pg.Client({ connectionString: db.url });
  await locker.connect();
  try {
    await locker.query('begin');
    await locker.query('lock table petstore_pets in access exclusive mode');
    // 30 lists: 10 hold the pool's connections waiting on the lock, 20 wait for a connection.
    const blocked = Array.from({ length: 30 }, () => send(`${server.url}/pets`, { timeoutMs: 20_000 }));
    for (const b of blocked) b.catch(() => {}); // a failed assertion below kills the server under them
    await new Promise((r) => setTimeout(r, 500));
    for (let i = 0; i < 3; i++) {
      const probe = await send(`${server.url}/health`, { timeoutMs: 5_000 });
      assert.is(probe.status, 200, probe.body);
      assert.ok(probe.ms < 1_000, `health took ${Math.round(probe.ms)} ms`);
    }
    await locker.query('commit');
    const answers = await within(Promise.all(blocked), 20_000, 'the blocked lists');
    // Queued past the 5 s bound, a list may have been answered 503; none failed otherwise.
    for (const a of answers) assert.ok(a.status === 200 || a.status === 503, String(a.status));
    assert.is((await stopGracefully(server)).code, 0);
  } finally {
    server.child.kill('SIGKILL');
    await locker.end();
    await db.drop();
  }
});

test.run();
