// Node.js: plain node:http, the store under /api beside the host's own routes and not-found
// answer, through createNodeHandler of petstore-router/node. PGlite in memory.
// Run: npx tsx examples/node/main.ts   (PORT, PETSTORE_API_KEY, EXAMPLE_SELF_TEST=1: see README)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPetStore } from 'petstore-router';
import { apiReference } from 'petstore-router/docs';
import { createNodeHandler } from 'petstore-router/node';
import { createPGliteDatabase } from 'petstore-router/pglite';
import { selfTest } from '../self-test.ts';

const key = process.env.PETSTORE_API_KEY ?? 'example-key';
const db = await createPGliteDatabase();
// The base path is the public one, prefix included: the store writes Location and Link from it.
const store = createPetStore({ db, keys: [key], basePath: '/api/v1', docs: apiReference() });
const petStore = createNodeHandler(store);

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?', 1)[0]!;
  // The store's requests: its base path and below (`/api/v10` is not below `/api/v1`).
  if (path === store.basePath || path.startsWith(`${store.basePath}/`)) return petStore(req, res);
  if (req.method === 'GET' && path === '/api/status')
    return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  res.writeHead(404, { 'content-type': 'application/json' }).end('{"host":"node","error":"not found"}'); // the host's own 404
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
console.log(`listening on ${origin}${store.basePath}`);

async function stop(code: number): Promise<never> {
  await new Promise((resolve) => server.close(resolve));
  await db.destroy();
  process.exit(code);
}
process.once('SIGTERM', () => void stop(0));
process.once('SIGINT', () => void stop(0));

if (process.env.EXAMPLE_SELF_TEST === '1') await stop(await selfTest(origin, key, 'node'));
