/**
 * "From nothing to the first in-process response", as a user's first test pays it: load the
 * package, create an in-memory PGlite (initdb + migrations), create the store, answer one
 * request. Prints the phase times (ms since the process started) as JSON.
 */
const t0 = performance.now();
const { createPetStore } = await import('petstore-router');
const { createPGliteDatabase } = await import('petstore-router/pglite');
const tImport = performance.now();
const db = await createPGliteDatabase();
const tDb = performance.now();
const store = createPetStore({ db, keys: ['k'] });
const res = await store.fetch(new Request('http://localhost/v1/pets', { headers: { authorization: 'Bearer k' } }));
await res.text();
const tFirst = performance.now();
if (res.status !== 200) throw new Error(`first response ${res.status}`);
console.log(JSON.stringify({ boot: t0, imports: tImport - t0, database: tDb - tImport, firstResponse: tFirst - tDb, total: tFirst }));
await db.destroy();
