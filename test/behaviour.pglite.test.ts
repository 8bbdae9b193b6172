import { sharedPGlite } from './helpers/db.js';
import { inProcess } from './helpers/harness.js';
import { runBehaviourSuite } from './behaviour/suite.js';

runBehaviourSuite({ label: 'pglite in-process', transport: inProcess, getDb: sharedPGlite });
