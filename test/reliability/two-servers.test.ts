import { Agent } from 'node:http';
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { assertEveryAcknowledgedListedOnce, createPets, listAll, percentile, send, sleep, within } from './helpers/load.js';
import { databaseUrl, postgresSuite } from '../helpers/postgres-test.js';
import { freshDatabase } from './helpers/postgres.js';
import { type Server, assertNoKeyInLogs, startServer, stopGracefully } from './helpers/server.js';

// PostgreSQL throughout: outside CI without DATABASE_URL every test is registered as skipped.
const test = postgresSuite(uvuTest);
const url = databaseUrl();
let db: { url: string; drop(): Promise<void> } | undefined;
let servers: Server[] = [];

test.before(async () => {
  db = await freshDatabase(url!, 'two');
  // Started together: both migrate the same fresh database at once. Load shedding off: this test
  // is about two processes writing one database (every acknowledged pet listed once), and its 64
  // clients do not retry a 503 (test/shed.test.ts and the overload bench cover shedding).
  const args = ['--database', db.url, '--max-in-flight', '0'];
  servers = await Promise.all([startServer(args), startServer(args)]);
});

test.after(async () => {
  for (const server of servers) {
    assert.is((await stopGracefully(server)).code, 0);
    assertNoKeyInLogs(server);
  }
  await db?.drop();
});

test('two server processes on one PostgreSQL, 64 clients, 5,000 pets: every one listed exactly once, ids unique', async () => {
  const started = performance.now();
  const result = await within(
    createPets({ urls: servers.map((s) => s.url), concurrency: 64, total: 5_000, timeoutMs: 30_000, label: 'two' }),
    120_000,
    'the load',
  );
  const seconds = (performance.now() - started) / 1000;
  // Each server lists everything, whichever process created it.
  const listings = await Promise.all(servers.map((s) => listAll(s.url)));
  console.log(
    `  ${result.acknowledged.size} acknowledged in ${seconds.toFixed(1)} s (p99 ${Math.round(percentile(result.createdMs, 99))} ms); ` +
      `listed ${listings.map((l) => l.length).join(' and ')}; outcomes ${JSON.stringify(Object.fromEntries(result.outcomes))}`,
  );
  assert.equal(Object.fromEntries(result.outcomes), { 201: 5_000 });
  for (const listed of listings) assert.is(assertEveryAcknowledgedListedOnce(result.acknowledged, listed), 0);
});

test('the same Idempotency-Key sent to both processes at once adds one pet; both get it', async () => {
  const before = (await listAll(servers[0]!.url)).length;
  const agents = servers.map(() => new Agent({ keepAlive: true }));
  const keys = Array.from({ length: 20 }, (_, i) => `cross-process-${i}`);
  // 409 (the other process holds the key) is retried, as a client honouring Retry-After would.
  const post = async (i: number, key: string) => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const a = await send(`${servers[i]!.url}/pets`, {
        method: 'POST',
        agent: agents[i]!,
        headers: { 'idempotency-key': key },
        body: JSON.stringify({ name: key, categoryId: 9 }),
      });
      if (a.status !== 409) return a;
      await sleep(100);
    }
    throw new Error(`${key}: still 409 after 50 attempts`);
  };
  try {
    let replays = 0;
    for (const key of keys) {
      const [a, b] = await Promise.all([post(0, key), post(1, key)]);
      assert.is(a.status, 201, a.body);
      assert.is(b.status, 201, b.body);
      assert.is(a.body, b.body, 'the same pet, the same id');
      assert.is(a.headers.location, b.headers.location);
      const replayed = [a, b].filter((x) => x.headers['idempotent-replayed'] === 'true').length;
      assert.is(replayed, 1, 'one original answer, one replay');
      replays += replayed;
    }
    const after = await listAll(servers[1]!.url);
    assert.is(after.length - before, keys.length, 'one pet per key');
    assert.equal(
      after
        .filter((p) => p.name.startsWith('cross-process-'))
        .map((p) => p.name)
        .sort(),
      [...keys].sort(),
    );
    console.log(`  ${keys.length} keys, ${replays} replays, ${after.length - before} pets added`);
  } finally {
    for (const agent of agents) agent.destroy();
  }
});

test.run();
