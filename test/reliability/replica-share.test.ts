import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresDatabase, readRouting } from '../../src/pg.js';
import { createPetStore } from '../../src/index.js';
import { databaseUrl, skippedSuite } from '../helpers/postgres-test.js';
import { admin, freshDatabase } from './helpers/postgres.js';
import { onReplica, replicaBase, replicaTool, untilReplicaHas } from './helpers/replica.js';

// With a healthy replica (no apply delay), most table reads of a read-heavy mix run on it,
// measured by PostgreSQL itself: pg_stat_user_tables' seq_scan + idx_scan of the store's tables on
// the primary and on the standby (a standby counts the scans run on it). The primary's WAL
// position, asked once per read, reads no table. PostgreSQL and the replica throughout.
const primaryUrl = databaseUrl();
const replicaUrl = replicaBase();
const test = primaryUrl && replicaUrl ? uvuTest : skippedSuite(uvuTest);

const OPERATIONS = 3_000;
const CLIENTS = 4;
const SCANS = `select coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0)::int8::text as scans
  from pg_stat_user_tables where relname in ('petstore_pets', 'petstore_orders')`;

/** The table scans the server of `url` counted in its database, once the figure stops moving (backends report when they end). */
async function settledScans(url: string): Promise<number> {
  let last = -1;
  for (let i = 0; i < 40; i++) {
    const now = Number((await admin(url, SCANS)).rows[0].scans);
    if (now === last) return now;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return last;
}

test('a read-heavy mix (90% reads) on a healthy replica: at least 80% of the table reads run on it', async () => {
  const db = await freshDatabase(primaryUrl!, 'share');
  try {
    const replicaDb = onReplica(replicaUrl!, db.url);
    await replicaTool(replicaUrl!, 'start', '--delay-ms', '0');
    await (await createPostgresDatabase(db.url)).destroy(); // migrated
    await untilReplicaHas(replicaDb);
    const before = { primary: await settledScans(db.url), replica: await settledScans(replicaDb) };

    const kysely = await createPostgresDatabase(db.url, { readReplicas: [replicaDb], migrate: false });
    const store = createPetStore({ db: kysely, keys: ['k'] });
    const call = (path: string, init: RequestInit = {}) =>
      store.fetch(
        new Request(`http://x/v1${path}`, { ...init, headers: { authorization: 'Bearer k', 'content-type': 'application/json' } }),
      );
    for (let i = 0; i < 50; i++) await call('/pets', { method: 'POST', body: JSON.stringify({ name: `seed-${i}`, categoryId: 1 }) });
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // a probe found the replica well
    let next = 0;
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        for (let i = next++; i < OPERATIONS; i = next++) {
          const kind = i % 10;
          const answer =
            kind === 0
              ? await call('/pets', { method: 'POST', body: JSON.stringify({ name: `mix-${i}`, categoryId: 2 }) })
              : kind <= 4
                ? await call(`/pets?limit=20${kind % 2 ? '&status=available' : ''}`)
                : kind <= 8
                  ? await call(`/pets/${1 + (i % 50)}`)
                  : await call('/store/orders?limit=10');
          await answer.arrayBuffer();
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        }
      }),
    );
    const routing = readRouting(kysely)!;
    await kysely.destroy(); // its backends end and report their counts
    const scans = { primary: (await settledScans(db.url)) - before.primary, replica: (await settledScans(replicaDb)) - before.replica };
    // Each read is one scan of one table. A replica found behind has run the read beside its
    // check (one round trip) before the read runs on the primary, so the standby's count includes
    // those: the reads answered there are the mix's reads less the primary's scans.
    const reads = OPERATIONS - statuses.get(201)!;
    const share = 1 - scans.primary / reads;
    console.log(
      `  ${reads} reads; table scans on the primary ${scans.primary}, on the replica ${scans.replica}: ` +
        `${(share * 100).toFixed(1)}% of the reads answered by the replica ` +
        `(the driver's own count: ${routing.replicas[0]!.reads} replica, ${routing.primaryReads} primary); answers ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    assert.equal([...statuses.keys()].sort(), [200, 201]);
    assert.ok(share >= 0.8, `only ${(share * 100).toFixed(1)}% of the table reads were answered by the replica`);
    assert.ok(scans.replica >= share * reads, 'the standby counted the scans of the reads it answered');
  } finally {
    await db.drop();
  }
});

test.run();
