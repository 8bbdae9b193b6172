// Hono: the store under /api on a route pattern beside the host app's own routes and not-found
// handler, served by petstore-router/node (no extra dependency). PGlite in memory.
// Run: npx tsx examples/hono/main.ts   (PORT, PETSTORE_API_KEY, EXAMPLE_SELF_TEST=1: see README)
import { Hono } from 'hono';
import { createPetStore } from 'petstore-router';
import { apiReference } from 'petstore-router/docs';
import { serve } from 'petstore-router/node';
import { createPGliteDatabase } from 'petstore-router/pglite';
import { selfTest } from '../self-test.ts';

const key = process.env.PETSTORE_API_KEY ?? 'example-key';
const db = await createPGliteDatabase();
// The base path is the public one, prefix included: the store writes Location and Link from it.
const store = createPetStore({ db, keys: [key], basePath: '/api/v1', docs: apiReference() });

const app = new Hono();
app.get('/api/status', (c) => c.json({ ok: true })); // the host's own route
// A route pattern, not app.mount: the store gets the request as sent (prefix included), and only
// paths under its base path (`/api/v1/*` matches `/api/v1` too), so the host's notFound still runs.
app.all(`${store.basePath}/*`, (c) => store.fetch(c.req.raw));
app.notFound((c) => c.json({ host: 'hono', error: 'not found' }, 404));

// On Deno or Bun: `Deno.serve(app.fetch)` / `export default app`. In tests: `await app.request('/api/v1/pets')`.
const server = await serve(app, { port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`listening on ${server.url}${store.basePath}`);

async function stop(code: number): Promise<never> {
  await server.close();
  await db.destroy();
  process.exit(code);
}
process.once('SIGTERM', () => void stop(0));
process.once('SIGINT', () => void stop(0));

if (process.env.EXAMPLE_SELF_TEST === '1') await stop(await selfTest(server.url, key, 'hono'));
