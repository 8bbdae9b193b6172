// Names the files of ours (src/, adapters/) that run code for one `POST /v1/pets` through the Node
// adapter, on PGlite or on PostgreSQL (DATABASE_URL, in a schema of its own, dropped at the end), by
// V8 precise coverage around that one request after a warm-up. docs/lifecycle.md names each of them
// (test/lifecycle.test.ts).
//   node --import tsx scripts/request-files.ts pglite|pg
import { request } from 'node:http';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { nodeResponse, serve } from '../adapters/node.js';
import { createPetStore, migrate } from '../src/index.js';
import { createPostgresDatabase } from '../src/pg.js';
import { createPGliteDatabase } from '../src/pglite.js';

const KEY = 'request-files-key';
const root = fileURLToPath(new URL('..', import.meta.url));
const driver = process.argv[2];
if (driver !== 'pglite' && driver !== 'pg') throw new TypeError(`usage: request-files.ts pglite|pg (got ${driver})`);
const url = process.env.DATABASE_URL;
if (driver === 'pg' && !url) throw new TypeError('request-files.ts pg needs DATABASE_URL');

const schema = `petstore_files_${process.pid}`;
const db = driver === 'pg' ? await createPostgresDatabase(url!, { migrate: false }) : await createPGliteDatabase();
if (driver === 'pg') await migrate(db, { schema });
const store = createPetStore({ db, keys: [KEY], createResponse: nodeResponse, ...(driver === 'pg' ? { schema } : {}) });
const served = await serve(store, { port: 0, host: '127.0.0.1' });
const port = new URL(served.url).port;

function createPet(): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = '{"name":"Rex","categoryId":7}';
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': body.length };
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/pets', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

try {
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
  if (status !== 201) throw new Error(`POST /v1/pets answered ${status}`);

  const ours = result
    .filter((script) => script.url.startsWith('file://'))
    .filter((script) => script.functions.some((f) => f.ranges.some((r) => r.count > 0)))
    .map((script) => fileURLToPath(script.url).slice(root.length))
    .filter((file) => /^(src|adapters)\//.test(file))
    .sort();
  for (const file of ours) console.log(file);
} finally {
  await served.close();
  if (driver === 'pg') await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
  await db.destroy();
}
