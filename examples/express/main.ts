// Express 5: the store under /api beside the host app's own routes and not-found handler,
// PGlite in memory. The store is mounted BEFORE express.json(): it reads the exact bytes itself
// (int64 ids beyond 2^53 included); the parser serves the host's own routes after it.
// Run: npx tsx examples/express/main.ts   (PORT, PETSTORE_API_KEY, EXAMPLE_SELF_TEST=1: see README)
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createPetStore } from 'petstore-router';
import { apiReference } from 'petstore-router/docs';
import { petStoreExpress } from 'petstore-router/express';
import { createPGliteDatabase } from 'petstore-router/pglite';
import { selfTest } from '../self-test.ts';

const key = process.env.PETSTORE_API_KEY ?? 'example-key';
const db = await createPGliteDatabase();
// The base path is the public one, prefix included: the store writes Location and Link from it.
const store = createPetStore({ db, keys: [key], basePath: '/api/v1', docs: apiReference() });

const app = express();
app.use(petStoreExpress(store)); // answers /api/v1/...; everything else goes on with next()
app.use(express.json());
app.post('/api/echo', (req, res) => {
  res.json(req.body); // the host's own route, with the host's body parser
});
app.use((_req, res) => {
  res.status(404).json({ host: 'express', error: 'not found' }); // the host's not-found handler
});

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
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

if (process.env.EXAMPLE_SELF_TEST === '1') await stop(await selfTest(origin, key, 'express'));
