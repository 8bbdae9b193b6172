import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readRouting } from '../src/pg.js';
import { sharedReplicatedPooled } from './helpers/db.js';
import { inProcess } from './helpers/harness.js';
import { runBehaviourSuite } from './behaviour/suite.js';

// The behavioural suite with PgBouncer (transaction mode, default settings) in front of the
// primary and another in front of the streaming replica: the check and the read reach one replica
// backend in one query, the primary's position is read through the pooler. Skipped only outside CI
// when PGBOUNCER_URL or REPLICA_PGBOUNCER_URL is unset; in CI it throws instead.
const replicated = sharedReplicatedPooled();
if (replicated) {
  runBehaviourSuite({ label: 'postgres with a read replica, both through pgbouncer', transport: inProcess, getDb: () => replicated });
  const served = suite('both through pgbouncer: routing');
  served('the replica is up and answered some of the reads', async () => {
    const routing = readRouting(await replicated)!;
    assert.is(routing.replicas[0]!.state, 'up');
    assert.ok(routing.replicas[0]!.reads > 0, `reads on the replica: ${JSON.stringify(routing)}`);
  });
  served.run();
} else console.log('behaviour.replica-pgbouncer: PGBOUNCER_URL or REPLICA_PGBOUNCER_URL unset, read-replica run skipped');
