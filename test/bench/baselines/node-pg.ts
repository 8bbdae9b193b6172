/**
 * Baseline: the pet store API hand-written on `node:http` + `pg`, the least a careful developer
 * would write for the same semantics (auth, validation, same SQL, same indexes), sending the SQL
 * as petstore-router does on its own pools: named statements (pg's query config `name`) with
 * array rows (`rowMode: 'array'`). Every answer carries `X-Request-Id`; a GET's 200 carries
 * `ETag` and `Cache-Control` and becomes a 304 on a matching `If-None-Match` (common.ts). It is
 * the floor petstore-router's standalone server is measured against.
 *
 *   node --import tsx test/bench/baselines/node-pg.ts --database URL --port N   (keys: PETSTORE_API_KEYS)
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  BASE,
  CACHE_CONTROL,
  CREDENTIALS,
  DEPRECATION_HEADERS,
  SQL,
  pageRows,
  STATUSES,
  type PetTuple,
  type Status,
  createKeyCheck,
  createPool,
  decodeCursor,
  encodeCursor,
  errorJson,
  isInt64,
  nameProblem,
  named,
  requestIdOf,
  serverArgs,
  tupleJson,
  tuplesJson,
  validator,
} from './common.js';

const { database, keys, port, host } = serverArgs();
const pool = createPool(database);
const keyOk = createKeyCheck(keys);
const MAX_BODY = 65_536;
const JSON_TYPE = 'application/json; charset=utf-8';

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: { path: string; message: string }[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** Every answer is written in one call, with Content-Length and the request's id. */
function send(res: ServerResponse, id: string, status: number, body: string, headers?: Record<string, string>): void {
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body), 'x-request-id': id, ...headers });
  res.end(body);
}

/** A GET's 200: tagged, or a 304 with the fields a 304 keeps when the client's tag matches. */
function sendTagged(req: IncomingMessage, res: ServerResponse, id: string, body: string, headers?: Record<string, string>): void {
  const { etag, notModified } = validator(body, headers?.link, req.headers['if-none-match']);
  if (notModified) {
    const kept: Record<string, string> = { etag, 'cache-control': CACHE_CONTROL, 'x-request-id': id };
    if (headers?.deprecation) Object.assign(kept, headers);
    res.writeHead(304, kept);
    res.end();
    return;
  }
  send(res, id, 200, body, { ...headers, etag, 'cache-control': CACHE_CONTROL });
}

function authenticate(req: IncomingMessage): void {
  const header = req.headers.authorization;
  if (header === undefined) throw new HttpError(401, 'unauthorized', 'an API key is required', undefined, { 'www-authenticate': 'Bearer' });
  const m = CREDENTIALS.exec(header);
  if (!m)
    throw new HttpError(401, 'unauthorized', 'malformed Authorization header', undefined, {
      'www-authenticate': 'Bearer error="invalid_request"',
    });
  if (!keyOk(m[1]!))
    throw new HttpError(401, 'unauthorized', 'the API key is not valid', undefined, { 'www-authenticate': 'Bearer error="invalid_token"' });
}

async function listPets(req: IncomingMessage, res: ServerResponse, id: string, query: URLSearchParams): Promise<void> {
  const details: { path: string; message: string }[] = [];
  const one = (name: string) => {
    const all = query.getAll(name);
    if (all.length > 1) details.push({ path: name, message: 'must be given at most once' });
    return all[0];
  };
  const limitText = one('limit');
  const status = one('status');
  const cursor = one('cursor');
  let limit = 20;
  if (limitText !== undefined) {
    limit = /^(?:0|[1-9][0-9]{0,2})$/.test(limitText) ? Number(limitText) : 0;
    if (limit < 1 || limit > 100) details.push({ path: 'limit', message: 'must be an integer from 1 to 100' });
  }
  if (status !== undefined && !STATUSES.includes(status as Status))
    details.push({ path: 'status', message: 'must be one of available, pending, sold' });
  if (details.length) throw new HttpError(400, 'invalid_request', 'invalid request', details);
  let afterId: string | undefined;
  if (cursor !== undefined) {
    afterId = decodeCursor(cursor, status ?? '');
    if (afterId === undefined)
      throw new HttpError(400, 'invalid_request', 'invalid request: cursor', [{ path: 'cursor', message: 'is not a valid cursor' }]);
  }
  const { rows } =
    status === undefined
      ? afterId === undefined
        ? await pool.query<PetTuple>(named(SQL.list(pageRows(limit)), []))
        : await pool.query<PetTuple>(named(SQL.listAfter(pageRows(limit)), [afterId]))
      : afterId === undefined
        ? await pool.query<PetTuple>(named(SQL.filter(pageRows(limit)), [status]))
        : await pool.query<PetTuple>(named(SQL.filterAfter(pageRows(limit)), [status, afterId]));
  let headers: Record<string, string> | undefined;
  if (rows.length > limit) {
    rows.length = limit;
    const next = new URLSearchParams({ limit: String(limit) });
    if (status !== undefined) next.set('status', status);
    next.set('cursor', encodeCursor(status ?? '', rows[limit - 1]![0]));
    headers = { link: `<http://${req.headers.host}${BASE}/pets?${next}>; rel="next"` };
  }
  sendTagged(req, res, id, tuplesJson(rows), headers);
}

async function getPet(req: IncomingMessage, res: ServerResponse, requestId: string, id: string): Promise<void> {
  const headers = { ...DEPRECATION_HEADERS, link: `<http://${req.headers.host}${BASE}/pets>; rel="successor-version"` };
  if (!isInt64(id))
    return send(
      res,
      requestId,
      400,
      errorJson(400, 'invalid_request', 'invalid request: petId', [{ path: 'petId', message: 'must be a decimal int64' }]),
      headers,
    );
  const { rows } = await pool.query<PetTuple>(named(SQL.get, [id]));
  if (rows.length === 0) return send(res, requestId, 404, errorJson(404, 'not_found', `pet ${id} does not exist`), headers);
  sendTagged(req, res, requestId, tupleJson(rows[0]!), headers);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        req.destroy();
        reject(new HttpError(413, 'payload_too_large', `the request body exceeds ${MAX_BODY} bytes`));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString() : Buffer.concat(chunks).toString()));
    req.on('error', reject);
  });
}

async function createPet(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
  if (!/^application\/json\s*(?:;|$)/i.test(req.headers['content-type'] ?? '')) {
    throw new HttpError(415, 'unsupported_media_type', 'the request body must be application/json');
  }
  if (Number(req.headers['content-length']) > MAX_BODY)
    throw new HttpError(413, 'payload_too_large', `the request body exceeds ${MAX_BODY} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req));
  } catch (e) {
    if (e instanceof HttpError) throw e;
    throw new HttpError(400, 'invalid_json', 'malformed JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new HttpError(400, 'invalid_request', 'the request body must be a JSON object');
  const { id, name, categoryId, status } = body as Record<string, unknown>;
  const details: { path: string; message: string }[] = [];
  if (id !== undefined) details.push({ path: 'id', message: 'must not be sent: the service assigns ids' });
  if (typeof name !== 'string') details.push({ path: 'name', message: 'must be a string' });
  else {
    const problem = nameProblem(name);
    if (problem) details.push({ path: 'name', message: problem });
  }
  if (!Number.isSafeInteger(categoryId)) details.push({ path: 'categoryId', message: 'must be an integer' });
  if (status !== undefined && !STATUSES.includes(status as Status))
    details.push({ path: 'status', message: 'must be one of available, pending, sold' });
  if (details.length) throw new HttpError(400, 'invalid_request', 'invalid request', details);
  const { rows } = await pool.query<PetTuple>(named(SQL.insert, [name, String(categoryId), status ?? 'available']));
  const pet = rows[0]!;
  send(res, requestId, 201, tupleJson(pet), { location: `http://${req.headers.host}${BASE}/pets/${pet[0]}` });
}

async function handle(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (path !== BASE && !path.startsWith(`${BASE}/`)) throw new HttpError(404, 'not_found', 'no such resource');
  authenticate(req);
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  if (path === `${BASE}/pets`) {
    if (method === 'GET') return listPets(req, res, id, new URLSearchParams(q < 0 ? '' : url.slice(q + 1)));
    if (method === 'POST') return createPet(req, res, id);
    throw new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here`, undefined, { allow: 'GET, HEAD, POST' });
  }
  if (path.startsWith(`${BASE}/pets/`) && path.indexOf('/', BASE.length + 6) < 0) {
    if (method === 'GET') return getPet(req, res, id, path.slice(BASE.length + 6));
    throw new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here`, undefined, { allow: 'GET, HEAD' });
  }
  throw new HttpError(404, 'not_found', 'no such resource');
}

const server = createServer((req, res) => {
  const id = requestIdOf(req.headers['x-request-id']);
  handle(req, res, id).catch((e: unknown) => {
    if (res.headersSent) return void res.destroy();
    if (e instanceof HttpError) return send(res, id, e.status, errorJson(e.status, e.code, e.message, e.details), e.headers);
    send(res, id, 500, errorJson(500, 'internal_error', 'internal server error'));
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, host, () => console.log(`listening on http://${host}:${port}${BASE}`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => server.close(() => void pool.end().then(() => process.exit(0))));
}
