// Express 5: the store mounted under /api beside the host app's own routes, PGlite in memory.
// express.json() runs BEFORE the store on purpose: the adapter rebuilds the parsed body instead of
// waiting for a stream that was already read. (Mounting the store before body parsers is better:
// it then reads the exact bytes, int64 ids beyond 2^53 included.)
// Run: npx tsx examples/express/main.ts   (PORT, PETSTORE_API_KEY, EXAMPLE_SELF_TEST=1: see README)
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createPetStore } from 'petstore-router';
import { petStoreExpress } from 'petstore-router/express';
import { createPGliteDatabase } from 'petstore-router/pglite';

const key = process.env.PETSTORE_API_KEY ?? 'example-key';
const db = await createPGliteDatabase();
const store = createPetStore({ db, keys: [key] });

const app = express();
app.use(express.json());
app.get('/api/health', (_req, res) => {
  res.json({ ok: true }); // the host's route: outside the store's /v1, so the store calls next()
});
app.use('/api', petStoreExpress(store)); // answers /api/v1/...

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
console.log(`listening on ${origin}/api${store.basePath}`);

async function stop(code: number): Promise<never> {
  await new Promise((resolve) => server.close(resolve));
  await db.destroy();
  process.exit(code);
}
process.once('SIGTERM', () => void stop(0));
process.once('SIGINT', () => void stop(0));

if (process.env.EXAMPLE_SELF_TEST === '1') {
  const health = await fetch(`${origin}/api/health`);
  const res = await fetch(`${origin}/api/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Espresso', categoryId: 1 }),
    signal: AbortSignal.timeout(5_000), // a hang here would be the body-parser bug
  });
  console.log(`self-test: GET /api/health -> ${health.status}; POST /api/v1/pets -> ${res.status} ${await res.text()}`);
  await stop(health.status === 200 && res.status === 201 ? 0 : 1);
}
