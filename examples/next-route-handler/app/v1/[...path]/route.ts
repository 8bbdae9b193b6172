// Next.js App Router: app/v1/[...path]/route.ts answers every /v1/... URL with the store.
// Next passes the full URL, so the store's default basePath '/v1' matches this folder.
import { createPetStore } from 'petstore-router';
import { createPGliteDatabase } from 'petstore-router/pglite';

// In production use PostgreSQL (createPostgresDatabase(process.env.DATABASE_URL) from
// 'petstore-router/pg'): every server instance would have its own in-memory PGlite.
const store = createPetStore({
  db: await createPGliteDatabase(),
  keys: (process.env.PETSTORE_API_KEYS ?? 'example-key').split(','),
});

// Next calls a handler as (request, context); store.fetch is bound and uses only the request.
export const GET = store.fetch;
export const HEAD = store.fetch;
export const POST = store.fetch;
export const PUT = store.fetch;
export const PATCH = store.fetch;
export const DELETE = store.fetch;
export const OPTIONS = store.fetch;
