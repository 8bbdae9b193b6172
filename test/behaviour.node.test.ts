import { sharedPGlite } from './helpers/db.js';
import { nodeSocket } from './helpers/node-transport.js';
import { runBehaviourSuite } from './behaviour/suite.js';

runBehaviourSuite({ label: 'pglite node-socket', transport: nodeSocket, getDb: sharedPGlite });
