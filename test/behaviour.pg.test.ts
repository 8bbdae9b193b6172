import { sharedPostgres } from './helpers/db.js';
import { inProcess } from './helpers/harness.js';
import { runBehaviourSuite } from './behaviour/suite.js';

// Skipped (uvu's Skipped) only outside CI when DATABASE_URL is unset; in CI sharedPostgres() throws instead.
const postgres = sharedPostgres();
runBehaviourSuite({ label: 'postgres in-process', transport: inProcess, getDb: () => postgres!, skipped: !postgres });
if (!postgres) console.log('behaviour.pg: DATABASE_URL unset, PostgreSQL run skipped');
