// Node.js: plain node:http through petstore-router/node, PGlite in memory.
// Run: npx tsx examples/node/main.ts   (PORT, PETSTORE_API_KEY, EXAMPLE_SELF_TEST=1: see README)
import { createPetStore } from 'petstore-router';
import { serve } from 'petstore-router/node';
import { createPGliteDatabase } from 'petstore-router/pglite';

const key = process.env.PETSTORE_API_KEY ?? 'example-key';
const db = await createPGliteDatabase();
const store = createPetStore({ db, keys: [key] });

const server = await serve(store, { port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`listening on ${server.url}${store.basePath}`);

async function stop(code: number): Promise<never> {
  await server.close();
  await db.destroy();
  process.exit(code);
}
process.once('SIGTERM', () => void stop(0));
process.once('SIGINT', () => void stop(0));

if (process.env.EXAMPLE_SELF_TEST === '1') {
  const res = await fetch(`${server.url}/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Noodle', categoryId: 1 }),
  });
  console.log(`self-test: POST /v1/pets -> ${res.status} ${await res.text()}`);
  await stop(res.status === 201 ? 0 : 1);
}
