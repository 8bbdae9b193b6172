// Bun: `Bun.serve` through petstore-router/bun, PGlite in memory.
// Run (from the repo, after `npm run build`): bun examples/bun/main.ts
import { createPetStore } from 'petstore-router';
import { serve } from 'petstore-router/bun';
import { createPGliteDatabase } from 'petstore-router/pglite';

const key = process.env.PETSTORE_API_KEY ?? 'example-key';
const db = await createPGliteDatabase();
const store = createPetStore({ db, keys: [key] });

// No hostname: serve listens on 127.0.0.1 unless given one ('0.0.0.0' for every interface).
const server = serve(store, { port: Number(process.env.PORT ?? 0) });
const origin = `http://${server.hostname}:${server.port}`;
console.log(`listening on ${origin}${store.basePath}`);

if (process.env.EXAMPLE_SELF_TEST === '1') {
  const res = await fetch(`${origin}/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bao', categoryId: 1 }),
  });
  const text = await res.text();
  console.log(`self-test: POST /v1/pets -> ${res.status} ${text} (listening on ${server.hostname})`);
  await server.stop(true);
  await db.destroy();
  process.exit(res.status === 201 && server.hostname === '127.0.0.1' ? 0 : 1);
}
