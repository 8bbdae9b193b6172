// Fastify 5: the store under /api with the plugin of petstore-router/fastify, beside the host
// app's own routes (which keep Fastify's JSON parser) and not-found handler. PGlite in memory.
// Run: npx tsx examples/fastify/main.ts   (PORT, PETSTORE_API_KEY, EXAMPLE_SELF_TEST=1: see README)
import Fastify from 'fastify';
import { createPetStore } from 'petstore-router';
import { apiReference } from 'petstore-router/docs';
import { petStorePlugin } from 'petstore-router/fastify';
import { createPGliteDatabase } from 'petstore-router/pglite';
import { selfTest } from '../self-test.ts';

const key = process.env.PETSTORE_API_KEY ?? 'example-key';
const db = await createPGliteDatabase();
// The base path is the public one, prefix included: the store writes Location and Link from it.
const store = createPetStore({ db, keys: [key], basePath: '/api/v1', docs: apiReference() });

const app = Fastify();
app.post('/api/echo', (request, reply) => reply.send(request.body)); // the host's own route, Fastify's JSON parser
app.setNotFoundHandler((_request, reply) => reply.code(404).send({ host: 'fastify', error: 'not found' }));
// The prefix is the start of the store's base path; the plugin serves `/api/v1` and below.
await app.register(petStorePlugin, { store, prefix: '/api' });

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`listening on ${address}${store.basePath}`);

async function stop(code: number): Promise<never> {
  await app.close();
  await db.destroy();
  process.exit(code);
}
process.once('SIGTERM', () => void stop(0));
process.once('SIGINT', () => void stop(0));

if (process.env.EXAMPLE_SELF_TEST === '1') await stop(await selfTest(address, key, 'fastify'));
