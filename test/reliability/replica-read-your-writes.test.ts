import { Agent } from 'node:http';
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { PROBE_INTERVAL_MS } from '../../src/drivers/pg/replica-health.js';
import { encodeCursor } from '../../src/schemas/cursor.js';
import { databaseUrl, skippedSuite } from '../helpers/postgres-test.js';
import { type Pet, send, sleep } from './helpers/load.js';
import { freshDatabase } from './helpers/postgres.js';
import { onReplica, readsByTarget, replicaBase, replicaTool, untilReplicaHas } from './helpers/replica.js';
import { type Server, startServer, stopGracefully } from './helpers/server.js';

// Two server processes sharing one primary and one streaming replica that applies WAL 300 ms
// late: a pet created through one is at once read through the other (get it, and list the page it
// belongs on), 300 times each way, and never missed. Nothing is shared between the processes but
// PostgreSQL: each read learns the primary's WAL position and runs on the replica only once the
// replica has replayed it. PostgreSQL and the replica throughout (REPLICA_URL, set by .ci/run).
const primaryUrl = databaseUrl();
const replicaUrl = replicaBase();
const test = primaryUrl && replicaUrl ? uvuTest : skippedSuite(uvuTest);

const ROUNDS = 300;
const DELAY_MS = 300;
let db: { url: string; drop(): Promise<void> } | undefined;
let servers: Server[] = [];
let replica: pg.Client | undefined;

test.before(async () => {
  db = await freshDatabase(primaryUrl!, 'ryw');
  const replicaDb = onReplica(replicaUrl!, db.url);
  const args = ['--database', db.url, '--read-replica', replicaDb, '--metrics-port', '0'];
  servers = [await startServer(args)];
  servers.push(await startServer(args)); // the first migrated the database
  await untilReplicaHas(replicaDb);
  await replicaTool(replicaUrl!, 'set-delay', String(DELAY_MS));
  replica = new pg.Client({ connectionString: replicaDb });
  await replica.connect();
});

test.after(async () => {
  await replica?.end();
  for (const server of servers) await stopGracefully(server);
  if (replicaUrl) await replicaTool(replicaUrl, 'set-delay', '0');
  await db?.drop();
});

/** Creates a pet through `writer`, then at once gets it and lists its page through `reader`: the misses. */
async function round(writer: Server, reader: Server, agents: Agent[], i: number): Promise<{ misses: string[]; replicaHadIt: boolean }> {
  const created = await send(`${writer.url}/pets`, {
    method: 'POST',
    agent: agents[0],
    body: JSON.stringify({ name: `ryw-${i}`, categoryId: 7 }),
  });
  assert.is(created.status, 201, created.body);
  const pet = JSON.parse(created.body) as Pet;
  const cursor = encodeCursor({ list: 'pets', status: '', afterId: BigInt(pet.id) - 1n });
  const [got, page, onReplica] = await Promise.all([
    send(`${reader.url}/pets/${pet.id}`, { agent: agents[1] }),
    send(`${reader.url}/pets?limit=10&cursor=${cursor}`, { agent: agents[2] }),
    replica!.query('select 1 from petstore_pets where id = $1', [pet.id]),
  ]);
  const misses: string[] = [];
  if (got.status !== 200 || (JSON.parse(got.body) as Pet).id !== pet.id) misses.push(`get ${pet.id}: ${got.status}`);
  if (page.status !== 200 || (JSON.parse(page.body) as Pet[])[0]?.id !== pet.id)
    misses.push(`page of ${pet.id}: ${page.status} ${page.body.slice(0, 80)}`);
  return { misses, replicaHadIt: onReplica.rowCount === 1 };
}

test(`replica ${DELAY_MS} ms behind: ${ROUNDS} x (create via one process, at once get and list via the other), both ways: 0 misses`, async () => {
  const agents = [0, 1, 2].map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  const misses: string[] = [];
  let replicaLacked = 0;
  for (const [writer, reader] of [
    [servers[0]!, servers[1]!],
    [servers[1]!, servers[0]!],
  ] as const) {
    for (let i = 0; i < ROUNDS; i++) {
      const outcome = await round(writer, reader, agents, i);
      misses.push(...outcome.misses);
      if (!outcome.replicaHadIt) replicaLacked++;
    }
  }
  console.log(`  ${2 * ROUNDS} rounds; the replica itself lacked the new pet in ${replicaLacked} of them; misses: ${misses.length}`);
  assert.equal(misses.slice(0, 5), []);
  // The test means something only if reading the replica blindly would have missed.
  assert.ok(replicaLacked > ROUNDS, `the replica lacked the new pet in only ${replicaLacked} rounds: is it lagging?`);
  // And the replica is in use: once it has caught up, the same reads run on it. A probe that found
  // it lagging past the bound under the rounds' writes (a loaded machine) skips it until the next
  // probe finds it well, within PROBE_INTERVAL_MS: reads are retried that long, not one fixed wait.
  await sleep(DELAY_MS * 3);
  const deadline = performance.now() + 2 * PROBE_INTERVAL_MS + DELAY_MS * 3;
  for (const server of servers) {
    const before = (await readsByTarget(server)).replica;
    let onTheReplica = 0;
    while (onTheReplica < 10 && performance.now() < deadline) {
      for (let i = 0; i < 10; i++) assert.is((await send(`${server.url}/pets?limit=5`)).status, 200);
      onTheReplica = (await readsByTarget(server)).replica - before;
      if (onTheReplica < 10) await sleep(100);
    }
    assert.ok(onTheReplica >= 10, JSON.stringify(await readsByTarget(server)));
  }
});

test.run();
