// PostgreSQL: the store on createPostgresDatabase(DATABASE_URL), called in-process (no server).
// Run: DATABASE_URL=postgres://user:pass@host:5432/db npx tsx examples/postgres/main.ts
import { createPetStore } from 'petstore-router';
import { createPostgresDatabase } from 'petstore-router/pg';

const url = process.env.DATABASE_URL;
if (!url) {
  if (process.env.CI) {
    console.error('DATABASE_URL must be set in CI');
    process.exit(1);
  }
  console.log('skipped: set DATABASE_URL (postgres://user:pass@host:5432/db) to run this example');
  process.exit(0);
}

const key = process.env.PETSTORE_API_KEY ?? 'example-key';
const db = await createPostgresDatabase(url); // applies the migrations; db.destroy() ends its pool
const store = createPetStore({ db, keys: [key] });
try {
  const res = await store.fetch(
    new Request('http://localhost/v1/pets', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Elephant', categoryId: 1 }),
    }),
  );
  console.log(`self-test: POST /v1/pets -> ${res.status} ${await res.text()}`);
  process.exitCode = res.status === 201 ? 0 : 1;
} finally {
  await db.destroy();
}
