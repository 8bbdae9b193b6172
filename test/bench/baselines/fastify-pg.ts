/**
 * Baseline: the pet store API as an idiomatic Fastify 5 + `pg` application: JSON-schema
 * validation (ajv) of querystring, params and body, an `onRequest` hook for the key, response
 * schemas (fast-json-stringify), the same SQL on the same indexes, sent as idiomatic pg code
 * sends it: `pool.query(text, values)`, unnamed statements (parsed and planned by PostgreSQL on
 * every query) and object rows. The request id is Fastify's own (`genReqId`, sent back from the
 * `onRequest` hook), the ETag an `onSend` hook over the serialised payload, as `@fastify/etag`
 * does it, with the shared entity-tag function (common.ts).
 *
 *   node --import tsx test/bench/baselines/fastify-pg.ts --database URL --port N   (keys: PETSTORE_API_KEYS)
 */
import Fastify, { type FastifyReply } from 'fastify';
import {
  BASE,
  CACHE_CONTROL,
  CREDENTIALS,
  DEPRECATION_HEADERS,
  SQL,
  pageRows,
  STATUSES,
  type PetRow,
  createKeyCheck,
  createPool,
  decodeCursor,
  encodeCursor,
  errorJson,
  isInt64,
  nameProblem,
  requestIdOf,
  serverArgs,
  validator,
} from './common.js';

const { database, keys, port, host } = serverArgs();
const pool = createPool(database);
const keyOk = createKeyCheck(keys);

// Errors are answered in petstore-router's Error shape; ajv's messages become `details`.
class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: { path: string; message: string }[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

const app = Fastify({
  logger: false,
  bodyLimit: 65_536,
  ajv: { customOptions: { allErrors: true } },
  // The API's request-id rule: the request's own X-Request-Id when valid, else a new UUID.
  requestIdHeader: false,
  genReqId: (req) => requestIdOf(req.headers['x-request-id']),
});

const Pet = {
  type: 'object',
  properties: {
    // fast-json-stringify writes pg's int8 text (and bigint) as exact integers.
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string' },
  },
  required: ['id', 'name', 'categoryId', 'status'],
} as const;
const ErrorSchema = {
  type: 'object',
  properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
} as const;

function reject(reply: FastifyReply, e: HttpError) {
  if (e.headers) reply.headers(e.headers);
  return reply
    .code(e.statusCode)
    .type('application/json; charset=utf-8')
    .send(errorJson(e.statusCode, e.code, e.message, e.details));
}

app.setErrorHandler((error, _request, reply) => {
  if (error instanceof HttpError) return reject(reply, error);
  const e = error as {
    validation?: { instancePath: string; params?: { missingProperty?: string }; message?: string }[];
    statusCode?: number;
  };
  if (e.validation) {
    const details = e.validation.map((v) => ({
      path: (v.instancePath.replace(/^\//, '').replace(/\//g, '.') || v.params?.missingProperty) ?? '',
      message: v.message ?? 'is invalid',
    }));
    return reject(reply, new HttpError(400, 'invalid_request', 'invalid request', details));
  }
  if (e.statusCode === 413) return reject(reply, new HttpError(413, 'payload_too_large', 'the request body exceeds 65536 bytes'));
  if (e.statusCode === 415) return reject(reply, new HttpError(415, 'unsupported_media_type', 'the request body must be application/json'));
  if (e.statusCode === 400) return reject(reply, new HttpError(400, 'invalid_json', 'malformed JSON'));
  return reject(reply, new HttpError(500, 'internal_error', 'internal server error'));
});
app.setNotFoundHandler((_request, reply) => reject(reply, new HttpError(404, 'not_found', 'no such resource')));

app.addHook('onRequest', async (request, reply) => {
  reply.header('x-request-id', request.id);
  const header = request.headers.authorization;
  const challenge = (error?: string) => ({ 'www-authenticate': error ? `Bearer error="${error}"` : 'Bearer' });
  if (header === undefined) throw new HttpError(401, 'unauthorized', 'an API key is required', undefined, challenge());
  const m = CREDENTIALS.exec(header);
  if (!m) throw new HttpError(401, 'unauthorized', 'malformed Authorization header', undefined, challenge('invalid_request'));
  if (!keyOk(m[1]!)) throw new HttpError(401, 'unauthorized', 'the API key is not valid', undefined, challenge('invalid_token'));
});

// Conditional GET: a GET's 200 is tagged from its serialised body and Link; a matching
// If-None-Match turns it into a 304 without a body.
app.addHook('onSend', (request, reply, payload, done) => {
  if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return done(null, payload);
  const link = reply.getHeader('link');
  const { etag, notModified } = validator(payload, typeof link === 'string' ? link : undefined, request.headers['if-none-match']);
  reply.header('etag', etag).header('cache-control', CACHE_CONTROL);
  if (!notModified) return done(null, payload);
  reply.code(304).removeHeader('content-type').removeHeader('content-length');
  if (!reply.hasHeader('deprecation')) reply.removeHeader('link');
  done(null, '');
});

await app.register(
  (api, _options, done) => {
    api.get<{ Querystring: { limit: number; status?: (typeof STATUSES)[number]; cursor?: string } }>(
      '/pets',
      {
        schema: {
          querystring: {
            type: 'object',
            properties: {
              limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
              status: { type: 'string', enum: STATUSES },
              cursor: { type: 'string', minLength: 1 },
            },
          },
          response: { 200: { type: 'array', items: Pet }, '4xx': ErrorSchema },
        },
      },
      async (request, reply) => {
        const { limit, status, cursor } = request.query;
        let afterId: string | undefined;
        if (cursor !== undefined) {
          afterId = decodeCursor(cursor, status ?? '');
          if (afterId === undefined)
            throw new HttpError(400, 'invalid_request', 'invalid request: cursor', [{ path: 'cursor', message: 'is not a valid cursor' }]);
        }
        const { rows } =
          status === undefined
            ? afterId === undefined
              ? await pool.query<PetRow>(SQL.list(pageRows(limit)), [])
              : await pool.query<PetRow>(SQL.listAfter(pageRows(limit)), [afterId])
            : afterId === undefined
              ? await pool.query<PetRow>(SQL.filter(pageRows(limit)), [status])
              : await pool.query<PetRow>(SQL.filterAfter(pageRows(limit)), [status, afterId]);
        if (rows.length > limit) {
          rows.length = limit;
          const next = new URLSearchParams({ limit: String(limit) });
          if (status !== undefined) next.set('status', status);
          next.set('cursor', encodeCursor(status ?? '', rows[limit - 1]!.id));
          reply.header('link', `<${request.protocol}://${request.host}${BASE}/pets?${next}>; rel="next"`);
        }
        return rows; // already the API's shape (the SQL names the columns)
      },
    );

    api.get<{ Params: { petId: string } }>(
      '/pets/:petId',
      { schema: { params: { type: 'object', properties: { petId: { type: 'string' } } }, response: { 200: Pet } } },
      async (request, reply) => {
        reply.headers({ ...DEPRECATION_HEADERS, link: `<${request.protocol}://${request.host}${BASE}/pets>; rel="successor-version"` });
        const { petId } = request.params;
        if (!isInt64(petId))
          throw new HttpError(400, 'invalid_request', 'invalid request: petId', [{ path: 'petId', message: 'must be a decimal int64' }]);
        const { rows } = await pool.query<PetRow>(SQL.get, [petId]);
        if (rows.length === 0) throw new HttpError(404, 'not_found', `pet ${petId} does not exist`);
        return rows[0]!;
      },
    );

    api.post<{ Body: { name: string; categoryId: number; status?: (typeof STATUSES)[number] } }>(
      '/pets',
      {
        schema: {
          body: {
            type: 'object',
            required: ['name', 'categoryId'],
            properties: {
              id: { not: {} },
              name: { type: 'string' },
              categoryId: { type: 'integer' },
              status: { type: 'string', enum: STATUSES, default: 'available' },
            },
          },
          response: { 201: Pet },
        },
      },
      async (request, reply) => {
        const { name, categoryId, status } = request.body;
        const problem = nameProblem(name);
        if (problem) throw new HttpError(400, 'invalid_request', 'invalid request: name', [{ path: 'name', message: problem }]);
        if (!Number.isSafeInteger(categoryId))
          throw new HttpError(400, 'invalid_request', 'invalid request: categoryId', [
            { path: 'categoryId', message: 'must be an integer' },
          ]);
        const { rows } = await pool.query<PetRow>(SQL.insert, [name, String(categoryId), status]);
        const pet = rows[0]!;
        reply.code(201).header('location', `${request.protocol}://${request.host}${BASE}/pets/${pet.id}`);
        return pet;
      },
    );
    done();
  },
  { prefix: BASE },
);

await app.listen({ port, host });
console.log(`listening on http://${host}:${port}${BASE}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(
    signal,
    () =>
      void app
        .close()
        .then(() => pool.end())
        .then(() => process.exit(0)),
  );
}
