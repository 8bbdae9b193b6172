// Deno: `Deno.serve` through petstore-router/deno, PGlite in memory.
// Run (from the repo, after `npm run build`): deno run --allow-env --allow-net --allow-read --allow-sys examples/deno/main.ts
import { createPetStore } from 'petstore-router';
import { serve } from 'petstore-router/deno';
import { createPGliteDatabase } from 'petstore-router/pglite';

// Deno's globals, declared structurally so this file also typechecks under Node's tsc.
declare const Deno: { env: { get(name: string): string | undefined }; exit(code: number): never };

const key = Deno.env.get('PETSTORE_API_KEY') ?? 'example-key';
const db = await createPGliteDatabase();
const store = createPetStore({ db, keys: [key] });

let server!: ReturnType<typeof serve>;
const origin = await new Promise<string>((resolve) => {
  server = serve(store, {
    port: Number(Deno.env.get('PORT') ?? 0), // no hostname: 127.0.0.1 unless given one
    onListen: ({ hostname, port }) => resolve(`http://${hostname}:${port}`),
  });
});
console.log(`listening on ${origin}${store.basePath}`);

if (Deno.env.get('EXAMPLE_SELF_TEST') === '1') {
  const res = await fetch(`${origin}/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Deno the dino', categoryId: 1 }),
  });
  const text = await res.text();
  console.log(`self-test: POST /v1/pets -> ${res.status} ${text} (listening on ${server.addr.hostname})`);
  await server.shutdown();
  await db.destroy();
  Deno.exit(res.status === 201 && server.addr.hostname === '127.0.0.1' ? 0 : 1);
}
