import { Agent } from 'node:http';
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { skippedSuite } from '../helpers/postgres-test.js';
import { admin } from '../reliability/helpers/postgres.js';
import { type Server, startServer, stopGracefully } from '../reliability/helpers/server.js';
import { cluster, clusterDatabase, ha, withHosts, hostsOf } from './helpers/cluster.js';
import { type Acknowledged, type Outcome, createLoad, isRetryable503, loop, request } from './helpers/traffic.js';

// Two server processes on the Patroni cluster of .ci/run under write load while its primary is
// lost (kill-primary) and then handed over (switchover): one with the multi-host URL
// (target_session_attrs=read-write) and the same list as read replicas (standby), one through
// HAProxy. The same processes throughout.
const ha3 = cluster();
const test = ha3 ? uvuTest : skippedSuite(uvuTest);
let db: { name: string; drop(): Promise<void> } | undefined;
let servers: Server[] = [];

test.before(async () => {
  const { url, proxyUrl } = ha3!;
  db = await clusterDatabase(proxyUrl, 'load');
  const hosts = hostsOf(url);
  const multi = ['--database', withHosts(url, hosts, db.name, '?target_session_attrs=read-write')];
  const replicas = ['--read-replica', withHosts(url, hosts, db.name, '?target_session_attrs=standby')];
  // Load shedding off: the clients here do not retry a shed 503, and shedding is tested elsewhere.
  servers = await Promise.all([
    startServer([...multi, ...replicas, '--max-in-flight', '0']),
    startServer(['--database', `${proxyUrl}/${db.name}`, '--max-in-flight', '0']),
  ]);
});

test.after(async () => {
  for (const server of servers) assert.is((await stopGracefully(server)).code, 0, server.stderr().slice(-2000));
  await db?.drop();
});

/** Reads on the multi-host server (a pet known to exist), and create-then-read: created on the HAProxy server, read on the multi-host one. */
function readers(acknowledgedBefore: Acknowledged) {
  const [first] = acknowledgedBefore.keys();
  const agent = new Agent({ keepAlive: true });
  const reads = loop(1, () => request(0, `${servers[0]!.url}/pets/${first}`, { agent }), 100);
  const misses: string[] = [];
  let checked = 0;
  const cross = loop(1, async () => {
    const name = `ryw-${checked}-${Date.now()}`;
    const created = await request(1, `${servers[1]!.url}/pets`, { method: 'POST', body: JSON.stringify({ name, categoryId: 2 }), agent });
    if (created.status !== 201) return created;
    const { id } = JSON.parse(created.body) as { id: number };
    const read = await request(0, `${servers[0]!.url}/pets/${id}`, { agent });
    checked++;
    if (read.status !== 200 || (JSON.parse(read.body) as { name: string }).name !== name) misses.push(`${id}: ${read.status} ${read.body}`);
    return read;
  });
  return {
    reads: reads.outcomes,
    ryw: () => ({ checked, misses }),
    stop: async () => {
      await Promise.all([reads.stop(), cross.stop()]);
      agent.destroy();
    },
  };
}

/** Every acknowledged create is in the database, with its name; answers are 201 or a 503 with an Error body; none dropped. */
async function assertNothingLost(acknowledged: Acknowledged, outcomes: readonly Outcome[]): Promise<void> {
  const { rows } = await admin(`${ha3!.proxyUrl}/${db!.name}`, 'select id, name from petstore_pets');
  const stored = new Map(rows.map((r: { id: string; name: string }) => [Number(r.id), r.name]));
  const missing = [...acknowledged].filter(([id, name]) => stored.get(id) !== name);
  assert.equal(missing, [], `${missing.length} of ${acknowledged.size} acknowledged creates missing`);
  // A 503 that does not say its outcome is unknown stored nothing.
  const names = new Set(stored.values());
  const unknown = outcomes.filter((o) => o.status === 503 && o.body.includes('may or may not have been stored'));
  const storedAnyway = outcomes.filter((o) => o.status === 503 && !unknown.includes(o) && names.has(o.name!));
  assert.equal(
    storedAnyway.map((o) => `${o.name}: ${o.body}`),
    [],
    'a 503 that does not say "outcome unknown" stored nothing',
  );
  console.log(`  ${unknown.length} x 503 with the outcome unknown, ${unknown.filter((o) => names.has(o.name!)).length} of them stored`);
  const others = outcomes.filter((o) => o.status !== 201 && !isRetryable503(o));
  assert.equal(
    others.map((o) => `${o.status} ${o.body}`),
    [],
    'only 201 and 503 with an Error body and Retry-After',
  );
}

test('kill-primary under write load: nothing acknowledged lost, only 201/503, no answer over 6.5 s, writes back within 5 s, reads 200 every second', async () => {
  const { port } = ha3!;
  const load = createLoad(
    servers.map((s) => s.url),
    6,
    'kill',
  );
  await new Promise((r) => setTimeout(r, 2_000));
  const side = readers(load.acknowledged);
  await new Promise((r) => setTimeout(r, 1_000));
  const killedAt = Date.now();
  let killed: string;
  let writableAt: number;
  try {
    killed = await ha(port, 'kill-primary');
    await ha(port, 'wait-primary', '--timeout', '60');
    writableAt = Date.now();
    await new Promise((r) => setTimeout(r, 6_000));
  } finally {
    await Promise.all([load.stop(), side.stop()]);
    // The lost node comes back as a standby (pg-ha.sh start starts what is not running and waits until all stream).
    await ha(port, 'start', '--haproxy', new URL(ha3!.proxyUrl).port);
  }
  const outcomes = load.outcomes;
  const count = (s: number | string) => outcomes.filter((o) => o.status === s).length;
  console.log(
    `  killed ${killed}; new primary writable after ${((writableAt - killedAt) / 1000).toFixed(1)} s; creates: ${count(201)} x 201, ${count(503)} x 503; ` +
      `slowest ${Math.round(Math.max(...outcomes.map((o) => o.ms)))} ms; reads ${side.reads.length}; read-your-writes checked ${side.ryw().checked}`,
  );
  await assertNothingLost(load.acknowledged, outcomes);
  assert.ok(load.acknowledged.size > 0);
  const slow = outcomes.filter((o) => o.ms > 6_500);
  assert.equal(
    slow.map((o) => `${o.status} ${Math.round(o.ms)} ms`),
    [],
    'no answer over 6.5 s',
  );
  for (const server of [0, 1]) {
    const back = outcomes.find((o) => o.server === server && o.status === 201 && o.at > writableAt);
    assert.ok(
      back !== undefined && back.at - writableAt <= 5_000,
      `server ${server}: first 201 ${back ? back.at - writableAt : 'never'} ms after the new primary took writes`,
    );
  }
  // Reads: every answer 200, in every second from the kill to the end.
  const notOk = side.reads.filter((o) => o.status !== 200);
  assert.equal(
    notOk.map((o) => `${o.status} ${o.body} ${o.at - killedAt} ms after the kill (writable at ${writableAt - killedAt} ms)`),
    [],
    'reads on the multi-host server',
  );
  for (let second = killedAt; second + 1_000 <= writableAt + 2_000; second += 1_000) {
    assert.ok(
      side.reads.some((o) => o.at >= second && o.at < second + 1_000),
      `a read answered in the second ${second - killedAt} ms after the kill`,
    );
  }
  assert.equal(side.ryw().misses, [], 'read-your-writes across the failover');
  assert.ok(side.ryw().checked > 0);
  assert.is(
    servers.every((s) => s.child.exitCode === null),
    true,
    'the same processes throughout',
  );
});

test('switchover under write load: nothing acknowledged lost, no 5xx but 503', async () => {
  const load = createLoad(
    servers.map((s) => s.url),
    6,
    'switch',
  );
  await new Promise((r) => setTimeout(r, 2_000));
  await ha(ha3!.port, 'switchover');
  const switchedAt = Date.now();
  await new Promise((r) => setTimeout(r, 5_000));
  await load.stop();
  const back = [0, 1].map((server) => load.outcomes.find((o) => o.server === server && o.status === 201 && o.at > switchedAt));
  console.log(`  switchover: ${load.acknowledged.size} acknowledged, ${load.outcomes.filter((o) => o.status === 503).length} x 503`);
  await assertNothingLost(load.acknowledged, load.outcomes);
  assert.ok(
    back.every((o) => o !== undefined),
    'both servers write again after the switchover',
  );
});

test.run();
