// Hono: `app.mount('/', store.fetch)` after the host app's own routes, served by
// petstore-router/node (no extra dependency). PGlite in memory.
// Run: npx tsx examples/hono/main.ts   (PORT, PETSTORE_API_KEY, EXAMPLE_SELF_TEST=1: see README)
import { Hono } from 'hono';
import { createPetStore } from 'petstore-router';
import { serve } from 'petstore-router/node';
import { createPGliteDatabase } from 'petstore-router/pglite';

const key = process.env.PETSTORE_API_KEY ?? 'example-key';
const db = await createPGliteDatabase();
const store = createPetStore({ db, keys: [key] });

const app = new Hono();
app.get('/health', (c) => c.json({ ok: true }));
// Mounted at '/', the store sees URLs unchanged, so the links it writes (Location, Link) are
// right. Everything the routes above do not answer reaches the store (its 404 outside /v1).
app.mount('/', store.fetch);

// On Deno or Bun: `Deno.serve(app.fetch)` / `export default app`. In tests: `await app.request('/v1/pets')`.
const server = await serve(app, { port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`listening on ${server.url}${store.basePath}`);

async function stop(code: number): Promise<never> {
  await server.close();
  await db.destroy();
  process.exit(code);
}
process.once('SIGTERM', () => void stop(0));
process.once('SIGINT', () => void stop(0));

if (process.env.EXAMPLE_SELF_TEST === '1') {
  const health = await app.request('/health'); // in-process, no socket
  const res = await fetch(`${server.url}/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Honey', categoryId: 1 }),
  });
  console.log(`self-test: GET /health -> ${health.status}; POST /v1/pets -> ${res.status} ${await res.text()}`);
  await stop(health.status === 200 && res.status === 201 ? 0 : 1);
}
