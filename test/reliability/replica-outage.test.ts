import { Agent } from 'node:http';
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { databaseUrl, skippedSuite } from '../helpers/postgres-test.js';
import { send, sleep } from './helpers/load.js';
import { freshDatabase } from './helpers/postgres.js';
import { onReplica, readsByTarget, replicaBase, replicaTool, untilReplicaHas } from './helpers/replica.js';
import { type Server, startServer, stopGracefully } from './helpers/server.js';

// A server reading from a streaming replica under a steady read-heavy load: the replica is stopped
// (fast shutdown: its connections end, new ones are refused), then started again. No answer may be
// a 5xx meanwhile (reads go to the primary), and once the replica is back its share of the reads
// must return within 10 s. PostgreSQL and the replica throughout (REPLICA_URL, set by .ci/run).
const primaryUrl = databaseUrl();
const replicaUrl = replicaBase();
const test = primaryUrl && replicaUrl ? uvuTest : skippedSuite(uvuTest);

const CLIENTS = 8;
let db: { url: string; drop(): Promise<void> } | undefined;
let server: Server | undefined;

test.before(async () => {
  db = await freshDatabase(primaryUrl!, 'outage');
  const replicaDb = onReplica(replicaUrl!, db.url);
  await replicaTool(replicaUrl!, 'start', '--delay-ms', '0');
  server = await startServer(['--database', db.url, '--read-replica', replicaDb, '--metrics-port', '0']);
  await untilReplicaHas(replicaDb);
});

test.after(async () => {
  if (replicaUrl) await replicaTool(replicaUrl, 'start', '--delay-ms', '0'); // whatever happened, leave it running
  if (server) await stopGracefully(server);
  await db?.drop();
});

/** Reads (and one create in ten) from CLIENTS clients until `stop()`; counts answers by status. */
function load(url: string) {
  const statuses = new Map<number | string, number>();
  let running = true;
  const clients = Array.from({ length: CLIENTS }, async (_, client) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; running; i++) {
      const answer = await (
        i % 10 === 0
          ? send(`${url}/pets`, { method: 'POST', agent, body: JSON.stringify({ name: `o-${client}-${i}`, categoryId: 3 }) })
          : send(`${url}/pets?limit=20${i % 3 === 0 ? '&status=available' : ''}`, { agent })
      ).catch((error: Error) => ({ status: `error ${error.message}` }));
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    agent.destroy();
  });
  return {
    statuses,
    stop: async () => {
      running = false;
      await Promise.all(clients);
    },
  };
}

/** The replica's share of the reads the server answered between two samples. */
function share(a: { primary: number; replica: number }, b: { primary: number; replica: number }): number {
  const reads = b.primary - a.primary + (b.replica - a.replica);
  return reads === 0 ? 0 : (b.replica - a.replica) / reads;
}

test('replica stopped under load: no 5xx; started again: its share of the reads is back within 10 s', async () => {
  const running = load(server!.url);
  try {
    await sleep(2_000);
    let before = await readsByTarget(server!);
    await sleep(1_000);
    const healthy = share(before, await readsByTarget(server!));
    assert.ok(healthy > 0.5, `share of the healthy replica: ${healthy}`);

    await replicaTool(replicaUrl!, 'stop');
    await sleep(500);
    before = await readsByTarget(server!);
    await sleep(2_000);
    const stopped = share(before, await readsByTarget(server!));
    assert.is(stopped, 0, 'no read on a stopped replica');
    const health = JSON.parse((await send(`${server!.url}/health`)).body) as { status: string };
    assert.is(health.status, 'warn');

    await replicaTool(replicaUrl!, 'start', '--delay-ms', '0');
    const restarted = performance.now();
    let back = Number.POSITIVE_INFINITY;
    let last = await readsByTarget(server!);
    while (performance.now() - restarted < 15_000) {
      await sleep(250);
      const now = await readsByTarget(server!);
      if (share(last, now) > 0.5) {
        back = performance.now() - restarted;
        break;
      }
      last = now;
    }
    console.log(`  healthy share ${(healthy * 100).toFixed(0)}%; back on the replica ${Math.round(back)} ms after it was started again`);
    assert.ok(back <= 10_000, `the replica's share came back after ${back} ms`);
  } finally {
    await running.stop();
  }
  const statuses = Object.fromEntries(running.statuses);
  console.log(`  answers: ${JSON.stringify(statuses)}`);
  for (const status of Object.keys(statuses)) assert.ok(status === '200' || status === '201', `answers: ${JSON.stringify(statuses)}`);
});

test.run();
