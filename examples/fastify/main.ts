// Fastify 5: a catch-all route under the store's base path forwards to store.fetch, PGlite in memory.
// Run: npx tsx examples/fastify/main.ts   (PORT, PETSTORE_API_KEY, EXAMPLE_SELF_TEST=1: see README)
import { Readable } from 'node:stream';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createPetStore } from 'petstore-router';
import { createPGliteDatabase } from 'petstore-router/pglite';

const key = process.env.PETSTORE_API_KEY ?? 'example-key';
const db = await createPGliteDatabase();
const store = createPetStore({ db, keys: [key] });

const app = Fastify();
app.get('/health', () => ({ ok: true })); // the host's own routes keep Fastify's JSON parser

// In a plugin, so the parser change stays inside it: the store reads the raw body itself
// (exact int64, its own 415/413/400 answers), so Fastify must not parse or consume it.
await app.register((scope, _options, done) => {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const headers = new Headers();
    const raw = request.raw.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers };
    if (hasBody) {
      init.body = Readable.toWeb(request.raw) as ReadableStream<Uint8Array>;
      init.duplex = 'half';
    }
    const response = await store.fetch(new Request(`${request.protocol}://${request.host}${request.raw.url}`, init));
    reply.code(response.status);
    for (const [name, value] of response.headers) if (name !== 'set-cookie') reply.header(name, value);
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    return reply.send(Buffer.from(await response.arrayBuffer()));
  };
  scope.all(store.basePath, forward);
  scope.all(`${store.basePath}/*`, forward);
  done();
});

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`listening on ${address}${store.basePath}`);

async function stop(code: number): Promise<never> {
  await app.close();
  await db.destroy();
  process.exit(code);
}
process.once('SIGTERM', () => void stop(0));
process.once('SIGINT', () => void stop(0));

if (process.env.EXAMPLE_SELF_TEST === '1') {
  const res = await fetch(`${address}/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Fast Eddie', categoryId: 1 }),
    signal: AbortSignal.timeout(5_000),
  });
  const health = await fetch(`${address}/health`);
  console.log(`self-test: POST /v1/pets -> ${res.status} ${await res.text()}; GET /health -> ${health.status}`);
  await stop(res.status === 201 && health.status === 200 ? 0 : 1);
}
