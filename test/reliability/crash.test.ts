import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assertEveryAcknowledgedListedOnce, createPets, listAll, send, sleep, within } from './helpers/load.js';
import { postgresTest } from '../helpers/postgres-test.js';
import { onFreshDatabase } from './helpers/postgres.js';
import { assertNoKeyInLogs, killHard, startServer, stopGracefully, tempDataDir } from './helpers/server.js';

/**
 * `kill -9` of the standalone server while 8 clients are creating pets, then a restart on the same
 * storage: every pet that got a 201 is there, unchanged, listed once. On PGlite this covers a
 * process crash only (PGlite runs without fsync: power loss is not covered, see docs/reliability.md).
 */
async function crashAndRestart(label: string, args: string[]) {
  const first = await startServer(args);
  let stop = false;
  const load = createPets({ urls: [first.url], concurrency: 8, stop: () => stop, timeoutMs: 10_000, label });
  await sleep(2_500);
  await killHard(first); // mid-write: requests are in flight
  stop = true;
  const result = await within(load, 20_000, 'the load');
  assertNoKeyInLogs(first);

  const second = await startServer(args); // a PGlite lock left by the killed process is stale: taken over
  try {
    const listed = await listAll(second.url);
    const extra = assertEveryAcknowledgedListedOnce(result.acknowledged, listed);
    console.log(
      `  ${label}: ${result.acknowledged.size} acknowledged, ${listed.length} listed after the restart (${extra} written without a 201); outcomes ${JSON.stringify(Object.fromEntries(result.outcomes))}`,
    );
    assert.ok(result.acknowledged.size >= 50, `only ${result.acknowledged.size} pets were acknowledged before the kill`);
    assert.ok(extra >= 0 && extra <= 8, `${extra} pets beyond the acknowledged ones (at most one per client in flight)`);
    const created = await send(`${second.url}/pets`, { method: 'POST', body: JSON.stringify({ name: 'after', categoryId: 1 }) });
    assert.is(created.status, 201, 'writes work after the restart');
    assert.not.ok(
      listed.some((p) => p.id === (JSON.parse(created.body) as { id: number }).id),
      'a new id, never reused',
    );
    const exit = await stopGracefully(second);
    assert.is(exit.code, 0);
    assertNoKeyInLogs(second);
  } finally {
    second.child.kill('SIGKILL');
  }
}

test('kill -9 mid-write, restart on the same PGlite data directory: every acknowledged pet is there, unchanged', async () => {
  await crashAndRestart('pglite', ['--data-dir', tempDataDir()]);
});

postgresTest(
  test,
  'kill -9 mid-write, restart on the same PostgreSQL database: every acknowledged pet is there, unchanged',
  async (url) => {
    await onFreshDatabase(url, 'crash', (fresh) => crashAndRestart('postgres', ['--database', fresh]));
  },
);

test.run();
