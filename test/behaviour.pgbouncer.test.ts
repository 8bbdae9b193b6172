import { sharedPgBouncer } from './helpers/db.js';
import { inProcess } from './helpers/harness.js';
import { runBehaviourSuite } from './behaviour/suite.js';

// The whole behavioural suite on PostgreSQL through PgBouncer 1.18 in transaction mode with its
// default settings and a plain URL (no switch): named statements meet backends that lack them or
// already have them. Skipped only outside CI when PGBOUNCER_URL is unset; in CI it throws instead.
const pooled = sharedPgBouncer();
if (pooled) runBehaviourSuite({ label: 'postgres through pgbouncer', transport: inProcess, getDb: () => pooled });
else console.log('behaviour.pgbouncer: PGBOUNCER_URL unset, PgBouncer run skipped');
