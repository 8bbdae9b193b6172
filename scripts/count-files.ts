// Counts the files of ours (src/, adapters/) that run code for one `POST /v1/pets` through the Node
// adapter on PGlite, by V8 precise coverage around that one request after a warm-up.
//   node --import tsx scripts/count-files.ts [--list]
// Prints the count (and with --list the files); exits 1 past the limit (issue 27: at most 15).
import { request } from 'node:http';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { createPetStore } from '../src/index.js';
import { createPGliteDatabase } from '../src/pglite.js';
import { nodeResponse, serve } from '../adapters/node.js';

const LIMIT = 15;
const KEY = 'count-files-key';
const root = fileURLToPath(new URL('..', import.meta.url));

const db = await createPGliteDatabase();
const store = createPetStore({ db, keys: [KEY], createResponse: nodeResponse });
const served = await serve(store, { port: 0, host: '127.0.0.1' });
const port = new URL(served.url).port;

function createPet(): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = '{"name":"Rex","categoryId":7}';
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/pets',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

for (let i = 0; i < 200; i++) await createPet(); // warm-up: every lazy part built, every path compiled

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
await session.post('Profiler.takePreciseCoverage'); // resets the counters
const status = await createPet();
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
session.disconnect();

const ours = result
  .filter((script) => script.url.startsWith('file://'))
  .map((script) => ({
    file: fileURLToPath(script.url).slice(root.length),
    ran: script.functions.some((f) => f.ranges.some((r) => r.count > 0)),
  }))
  .filter(({ file, ran }) => ran && /^(src|adapters)\//.test(file))
  .map(({ file }) => file)
  .sort();

await served.close();
await db.destroy();
if (status !== 201) throw new Error(`POST /v1/pets answered ${status}`);
console.log(`POST /v1/pets through the Node adapter on PGlite ran code in ${ours.length} files of ours (limit ${LIMIT})`);
if (process.argv.includes('--list')) for (const file of ours) console.log(`  ${file}`);
process.exitCode = ours.length <= LIMIT ? 0 : 1;
