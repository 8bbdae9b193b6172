/**
 * Read replicas: the read scenarios through `store.fetch` on PostgreSQL, with no replica and with
 * the streaming replica at BENCH_REPLICA_URL (default: the same database on 127.0.0.1:5433, as
 * ../shared/tools/pg-replica.sh starts it), side by side. Both stores read the same table and are
 * measured in alternating blocks, so the shared machine's noise falls on both alike. With a
 * replica each read costs one more round trip (the primary's WAL position) before it runs on the
 * replica: the latency and throughput ratios show that cost; the primary's CPU is what a replica saves.
 */
import type { Kysely } from 'kysely';
import { type Database, createPetStore } from 'petstore-router';
import { createPostgresDatabase, readRouting } from 'petstore-router/pg';
import { config } from './config.js';
import { seedPets } from './db.js';
import { fmt, median, percentile, table, timeEach } from './stats.js';

const headers = { authorization: `Bearer ${config.apiKey}` };
const ROWS = 10_000;
/** Requests in flight at once in the throughput measurement. */
const CONCURRENCY = 16;

const scenarios: Record<string, (i: number) => string> = {
  'list (limit 20)': () => '/v1/pets?limit=20',
  'filter (status, limit 100)': () => '/v1/pets?status=available&limit=100',
  'get by id': (i) => `/v1/pets/${1 + ((i * 7919) % ROWS)}`,
};

function caller(db: Kysely<Database>) {
  const store = createPetStore({ db, keys: [config.apiKey] });
  return async (path: string) => {
    const res = await store.fetch(new Request(`http://bench${path}`, { headers }));
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    await res.text();
  };
}

/** `count` requests from CONCURRENCY callers; requests per second. */
async function throughput(call: (path: string) => Promise<void>, path: (i: number) => string, count: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < count; i = next++) await call(path(i));
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

export function replicaUrl(): string {
  if (process.env.BENCH_REPLICA_URL) return process.env.BENCH_REPLICA_URL;
  const url = new URL(config.databaseUrl);
  url.port = '5433';
  return url.toString();
}

export async function runReplica(log: (s: string) => void): Promise<string> {
  const n = config.quick ? 400 : 2000;
  const block = 100;
  const replica = replicaUrl();
  const plain = await createPostgresDatabase(config.databaseUrl);
  const replicated = await createPostgresDatabase(config.databaseUrl, { readReplicas: [replica], migrate: false });
  const latency = [new Map<string, number[]>(), new Map<string, number[]>()];
  const rates = [new Map<string, number[]>(), new Map<string, number[]>()];
  try {
    await seedPets(plain, ROWS);
    const calls = [caller(plain), caller(replicated)];
    await calls[1]!('/v1/pets?limit=1'); // its first read opens its pool and starts the replicas' probe
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // replayed, and a probe found the replica well
    if (readRouting(replicated)!.replicas[0]!.state !== 'up') {
      return `Skipped: the replica at ${replica.replace(/:[^:@/]*@/, ':***@')} is not up (${readRouting(replicated)!.replicas[0]!.reason}). Start one with ../shared/tools/pg-replica.sh start --port 5433.`;
    }
    for (const [name, path] of Object.entries(scenarios)) {
      for (const call of calls) await timeEach(block, (i) => call(path(i))); // warm-up
      for (let done = 0; done < n; done += block) {
        for (let s = 0; s < calls.length; s++) {
          const times = await timeEach(block, (i) => calls[s]!(path(done + i)));
          latency[s]!.set(name, [...(latency[s]!.get(name) ?? []), ...times]);
          rates[s]!.set(name, [...(rates[s]!.get(name) ?? []), await throughput(calls[s]!, (i) => path(done + i), block * 4)]);
        }
      }
      log(`  ${name}: ${['none', 'replica'].map((label, s) => `${label} ${fmt.ms(median(latency[s]!.get(name)!) / 1000)} ms`).join(', ')}`);
    }
  } finally {
    const routing = readRouting(replicated);
    log(`  routing: ${JSON.stringify(routing)}`);
    await replicated.destroy();
    await plain.destroy();
  }
  const routing = readRouting(replicated);
  const body = Object.keys(scenarios).map((name) => {
    const [a, b] = [latency[0]!.get(name)!, latency[1]!.get(name)!];
    const [ra, rb] = [median(rates[0]!.get(name)!), median(rates[1]!.get(name)!)];
    return [
      name,
      fmt.ms(median(a) / 1000),
      fmt.ms(median(b) / 1000),
      fmt.ratio(median(b) / median(a)),
      fmt.ms(percentile(a, 99) / 1000),
      fmt.ms(percentile(b, 99) / 1000),
      fmt.int(ra),
      fmt.int(rb),
      fmt.ratio(rb / ra),
    ];
  });
  const answered = routing ? routing.replicas[0]!.reads / (routing.replicas[0]!.reads + routing.primaryReads) : NaN;
  return [
    `PostgreSQL, in-process \`store.fetch\`, ${ROWS.toLocaleString('en-US')} pets; one store without read replicas and one with the streaming replica (no apply delay) on the same database, measured in alternating blocks of ${block}: latency one request at a time (${n} each), throughput with ${CONCURRENCY} requests in flight. ` +
      `With the replica, ${fmt.int(answered * 100)}% of the reads were answered by it (the rest by the primary). Primary and replica share this machine's cores, so the throughput shows the added round trip, not the primary's relief.`,
    '',
    table(
      [
        'read',
        'median ms, none',
        'median ms, replica',
        'ratio',
        'p99 ms, none',
        'p99 ms, replica',
        'req/s, none',
        'req/s, replica',
        'ratio',
      ],
      body,
    ),
  ].join('\n');
}
