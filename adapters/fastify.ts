// `petstore-router/fastify`: the store as a Fastify 5 plugin. Only Fastify's types are imported
// (an optional peer), never Fastify itself: the host app passes its own instance in.
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { type PetStore, checkPetStorePluginOptions } from 'petstore-router';
import { createNodeHandler } from 'petstore-router/node';
import { bodyAlreadyParsedAnswer } from './parsed-body.js';

/** Options of {@link petStorePlugin}, besides Fastify's own register options (`prefix`). */
export interface PetStorePluginOptions {
  /** The store to serve, from `createPetStore`; its `basePath` is where it answers. */
  store: PetStore;
}

/**
 * A Fastify plugin serving `store` at its base path, the URL as the client sent it: a store created
 * with `basePath: '/api/v1'` answers `/api/v1/…` and writes `Location: /api/v1/pets/{id}`. Fastify's
 * `prefix` register option, when given, must be the start of that base path (the routes are
 * registered under it); anything else fails at registration. The host's other routes and its
 * not-found handler are untouched.
 *
 * Inside the plugin (and only there: Fastify scopes it) Fastify's content-type parsers are replaced
 * by one that reads nothing, so the store reads the bytes as sent (exact int64, its own 413/415/400
 * answers); the host's routes keep Fastify's JSON parser. If a hook of the host reads the body of
 * a store request anyway, the answer is a 500 Error with code `body_already_parsed` saying so
 * (logged once on stderr). Requests go through the Node bridge of `petstore-router/node` (body cap
 * while streaming, abort on client disconnect); the reply is hijacked from Fastify for that.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify'
 * import { createPetStore } from 'petstore-router'
 * import { petStorePlugin } from 'petstore-router/fastify'
 * import { createPGliteDatabase } from 'petstore-router/pglite'
 *
 * const store = createPetStore({ db: await createPGliteDatabase(), keys: [process.env.API_KEY!], basePath: '/api/v1' })
 * const app = Fastify()
 * await app.register(petStorePlugin, { store, prefix: '/api' })
 * await app.listen({ port: 8080 })   // GET http://localhost:8080/api/v1/pets
 * ```
 */
export const petStorePlugin: FastifyPluginCallback<PetStorePluginOptions> = (scope, options, done) => {
  let checked: ReturnType<typeof checkPetStorePluginOptions>;
  try {
    checked = checkPetStorePluginOptions(options, scope.prefix);
  } catch (error) {
    return done(error as Error);
  }
  const { store, path } = checked;
  const parsedBody = bodyAlreadyParsedAnswer(
    'a hook of the Fastify app',
    "don't read the body in hooks that run for the store's routes; the plugin reads it raw itself",
  );
  const serveStore = createNodeHandler(store);
  const serveParsedBody = createNodeHandler({ fetch: (request) => parsedBody(request.headers.get('x-request-id')) });

  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
  const handler = (request: FastifyRequest, reply: FastifyReply): void => {
    const consumed = (request.body !== undefined && request.body !== null) || request.raw.readableEnded;
    reply.hijack(); // the Node bridge writes the answer on the raw response
    (consumed ? serveParsedBody : serveStore)(request.raw, reply.raw);
  };
  scope.all(path === '' && scope.prefix === '' ? '/' : path, handler);
  scope.all(`${path}/*`, handler);
  done();
};
