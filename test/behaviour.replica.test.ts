import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readRouting } from '../src/pg.js';
import { sharedReplicated } from './helpers/db.js';
import { inProcess } from './helpers/harness.js';
import { runBehaviourSuite } from './behaviour/suite.js';

// The whole behavioural suite on PostgreSQL with a streaming replica as read replica: every read
// of the suite comes right after the writes it checks, so it passes only if reads never see less
// than was written (read-your-writes by WAL positions). Skipped only outside CI when REPLICA_URL is
// unset; in CI it throws instead.
const replicated = sharedReplicated();
if (replicated) {
  runBehaviourSuite({ label: 'postgres with a read replica', transport: inProcess, getDb: () => replicated });
  // Run after the suite: the replica was used (not every read fell back to the primary).
  const served = suite('postgres with a read replica: routing');
  served('the replica is up and answered some of the reads', async () => {
    const routing = readRouting(await replicated)!;
    assert.is(routing.replicas[0]!.state, 'up');
    assert.ok(routing.replicas[0]!.reads > 0, `reads on the replica: ${JSON.stringify(routing)}`);
  });
  served.run();
} else console.log('behaviour.replica: REPLICA_URL unset, read-replica run skipped');
