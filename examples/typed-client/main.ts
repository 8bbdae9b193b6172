// A typed client nobody here wrote: types generated from the OpenAPI document by
// openapi-typescript (schema.d.ts, see generate.ts), requests sent by openapi-fetch.
// openapi-fetch takes a `fetch` function, so it drives `store.fetch` directly: no socket.
// Against a running server, drop the `fetch` option and set `baseUrl` to its address.
// Run: npx tsx examples/typed-client/main.ts   (exits 1 when an answer is not the expected one)
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import { createPetStore } from 'petstore-router';
import { createPGliteDatabase } from 'petstore-router/pglite';
import type { paths } from './schema.js';

const KEY = 'example-key';

function expect(ok: boolean, what: string, got?: unknown): asserts ok {
  if (!ok) throw new Error(`typed client: ${what}${got === undefined ? '' : `, got ${JSON.stringify(got)}`}`);
}

export async function main(): Promise<void> {
  const db = await createPGliteDatabase();
  try {
    const store = createPetStore({ db, keys: [KEY] });
    const client = createClient<paths>({
      baseUrl: `http://localhost${store.basePath}`,
      fetch: store.fetch,
      headers: { authorization: `Bearer ${KEY}` },
    });

    // Create: the body is checked against NewPet at compile time.
    const created = await client.POST('/pets', { body: { name: 'Noodle', categoryId: 7, status: 'pending' } });
    expect(created.response.status === 201 && created.data !== undefined, 'POST /pets answers 201', created.error);
    const pet = created.data;
    expect(pet.name === 'Noodle' && pet.categoryId === 7 && pet.status === 'pending', 'the created pet', pet);
    expect(created.response.headers.get('location')?.endsWith(`/pets/${pet.id}`) === true, 'Location names the pet');

    // Get: ids round-trip exactly up to 2^53 as JS numbers (see docs/openapi.md for bigger ids).
    const got = await client.GET('/pets/{petId}', { params: { path: { petId: pet.id } } });
    expect(got.data?.id === pet.id && got.data.name === 'Noodle', 'GET /pets/{petId} returns it', got.data);
    expect(got.response.headers.has('deprecation'), 'getPet is deprecated and says so');

    // List: query parameters are typed (limit: number, status: 'available' | 'pending' | 'sold').
    const listed = await client.GET('/pets', { params: { query: { status: 'pending', limit: 10 } } });
    expect(listed.data?.some((p) => p.id === pet.id) === true, 'GET /pets lists it', listed.data);

    // An error case: the Error body is typed too.
    const invalid = await client.POST('/pets', { body: { name: '   ', categoryId: 1 } });
    expect(invalid.response.status === 400 && invalid.error?.code === 'invalid_request', 'a blank name is a 400', invalid.error);
    expect(invalid.error.details?.some((d) => d.path === 'name') === true, 'details name the field', invalid.error);

    const anonymous = createClient<paths>({ baseUrl: `http://localhost${store.basePath}`, fetch: store.fetch });
    const refused = await anonymous.GET('/pets');
    expect(refused.response.status === 401 && refused.error?.code === 'unauthorized', 'no key is a 401', refused.error);
    expect(refused.response.headers.get('www-authenticate') === 'Bearer', '401 carries WWW-Authenticate');

    console.log(`typed client: created, read and listed pet ${pet.id}; 400 and 401 typed as Error`);
  } finally {
    await db.destroy();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
