import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore, openApiDocument } from '../src/index.js';
import { routes } from '../src/routes/table.js';
import { sharedPGlite } from './helpers/db.js';

const KEY = 'openapi-test-key-4f1d2c';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function operations(doc: ReturnType<typeof openApiDocument>) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ path, method, op })),
  );
}

test('every route of the table is an operation, with its operationId', () => {
  const doc = openApiDocument();
  const ops = operations(doc);
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const op = doc.paths[path]?.[route.method.toLowerCase()];
    assert.ok(op, `${route.method} ${path}`);
    assert.is(op.operationId, route.operationId);
  }
  const ids = routes.map((r) => r.operationId).sort();
  assert.ok(ids.includes('listPets') && ids.includes('getPet'), 'the table holds the operations');
  assert.equal(ops.map((o) => o.op.operationId).sort(), [...ids, 'getOpenApiDocument'].sort());
  assert.equal(
    operations(openApiDocument({ describeSelf: false }))
      .map((o) => o.op.operationId)
      .sort(),
    ids,
  );
});

test('version, one server relative to the document, bearer security on every operation but the document itself', () => {
  const doc = openApiDocument();
  assert.is(doc.openapi, '3.1.0');
  assert.is(doc.info.version, '1.0.0');
  // Issue 24 item 13: no placeholder host; `.` is the folder the document is served from.
  assert.equal(
    doc.servers.map((s) => s.url),
    ['.'],
  );
  assert.is(new URL(doc.servers[0]!.url, 'https://h.example/api/v1/openapi.json').href, 'https://h.example/api/v1/');
  assert.equal(doc.components.securitySchemes.bearerAuth, {
    type: 'http',
    scheme: 'bearer',
    description: doc.components.securitySchemes.bearerAuth.description,
  });
  assert.equal(doc.security, [{ bearerAuth: [] }]);
  for (const { op } of operations(doc)) {
    if (op.operationId === 'getOpenApiDocument') assert.equal(op.security, []);
    else {
      assert.is(op.security, undefined, `${op.operationId} inherits the document's security`);
      assert.ok(op.responses['401'], `${op.operationId} documents 401`);
    }
  }
});

test('deprecated and x-stability as each definition says (getPet deprecated, listOrders experimental)', () => {
  const byId = new Map(routes.map((r) => [r.operationId, r]));
  assert.ok(byId.get('getPet')?.deprecation && byId.get('listOrders')?.stability === 'experimental');
  for (const { op } of operations(openApiDocument())) {
    const route = byId.get(op.operationId);
    assert.is(op.deprecated, route?.deprecation ? true : undefined, op.operationId);
    assert.is(op['x-stability'], route?.stability, op.operationId);
  }
});

test('int64 fields are integer/int64 with no rounded bound', () => {
  const doc = openApiDocument();
  const { Pet, NewPet, Order } = doc.components.schemas;
  const int64s = [Pet.properties.id, Pet.properties.categoryId, NewPet.properties.categoryId, Order.properties.id, Order.properties.petId];
  int64s.push(doc.paths['/pets/{petId}']!.get!.parameters[0].schema);
  for (const s of int64s) {
    assert.is(s.type, 'integer');
    assert.is(s.format, 'int64');
    assert.is(s.minimum, undefined);
    assert.is(s.maximum, undefined);
  }
  // Every number of the document is exact as a double: no bound was rounded on the way.
  JSON.parse(JSON.stringify(doc), (key, value) => {
    if (typeof value === 'number') assert.ok(Number.isSafeInteger(value), `${key}: ${value}`);
    return value;
  });
});

test('parameters carry their constraints and defaults', () => {
  const doc = openApiDocument();
  const params = doc.paths['/pets']!.get!.parameters as any[];
  const limit = params.find((p) => p.name === 'limit');
  assert.equal(limit.schema, { type: 'integer', minimum: 1, maximum: 100, default: 20 });
  assert.equal(params.find((p) => p.name === 'status').schema, { $ref: '#/components/schemas/PetStatus' });
  assert.equal(params.find((p) => p.name === 'cursor').schema, { type: 'string', minLength: 1 });
  assert.equal(doc.components.schemas.PetStatus.enum, ['available', 'pending', 'sold']);
  const name = doc.components.schemas.NewPet.properties.name;
  assert.is(name.minLength, 1);
  assert.is(name.maxLength, 255);
  assert.equal(doc.components.schemas.NewPet.required, ['name', 'categoryId']);
  assert.is(doc.components.schemas.NewPet.properties.id, undefined);
});

test('every error status of the pipeline is documented, with its headers', () => {
  const doc = openApiDocument();
  assert.equal(Object.keys(doc.paths['/pets']!.post!.responses).sort(), [
    '201',
    '400',
    '401',
    '408',
    '409',
    '413',
    '415',
    '422',
    '429',
    '500',
    '503',
  ]);
  // What the pipeline answers follows from each definition: every operation of the table is held to it.
  for (const route of routes) {
    const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]![route.method.toLowerCase()]!;
    const statuses = Object.keys(op.responses);
    const request = route.request ?? {};
    // Every operation may answer the optional rate limit's 429; a GET answers 304 to If-None-Match.
    const expected = ['401', '429', '500', '503'];
    if (route.method === 'GET') expected.push('304');
    if (request.params || request.query || request.headers || request.body) expected.push('400');
    if (request.body) expected.push('413', '415');
    if (route.deprecation) expected.push('410');
    for (const status of expected) assert.ok(statuses.includes(status), `${route.operationId} documents ${status}`);
    assert.ok(
      statuses.some((s) => s.startsWith('2')),
      `${route.operationId} documents its success`,
    );
    for (const [status, response] of Object.entries<any>(op.responses)) {
      const names = Object.keys(response.headers ?? {});
      const deprecated = route.deprecation !== undefined && status !== '401';
      for (const h of ['Deprecation', 'Sunset']) assert.is(names.includes(h), deprecated, `${route.operationId} ${status} ${h}`);
    }
  }
  assert.ok(doc.components.responses.Unauthorized.headers['WWW-Authenticate']);
  assert.ok(doc.components.responses.MethodNotAllowed.headers.Allow);
  assert.ok(doc.components.responses.ServiceUnavailable.headers['Retry-After']);
  assert.ok(doc.paths['/pets']!.post!.responses['201'].headers.Location);
  assert.ok(doc.paths['/pets']!.get!.responses['200'].headers.Link);
  const codes = doc.components.schemas.Error.properties.code.enum;
  assert.ok(codes.includes('unauthorized') && codes.includes('service_unavailable'));
});

test('servers and base path are options', () => {
  const [relative] = openApiDocument({ basePath: '/api' }).servers;
  assert.is(new URL(relative!.url, 'http://x/api/openapi.json').pathname, '/api/', 'served at {basePath}/openapi.json');
  const servers = [{ url: 'https://api.example.org/v1', description: 'Ours' }];
  assert.equal(openApiDocument({ servers }).servers, servers);
});

test('served at /v1/openapi.json without a key, also with HEAD, and holds no key material', async () => {
  const db = await sharedPGlite();
  const store = createPetStore({ db, keys: [KEY, `sha256:${'ab'.repeat(32)}`] });
  const res = await store.fetch(new Request('http://x/v1/openapi.json'));
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const text = await res.text();
  assert.equal(JSON.parse(text), openApiDocument());
  assert.not.ok(text.includes(KEY) || text.includes('abab') || text.includes(KEY.slice(0, 8)), 'no key or key prefix');
  const head = await store.fetch(new Request('http://x/v1/openapi.json', { method: 'HEAD' }));
  assert.is(head.status, 200);
  assert.is(await head.text(), '');
  const post = await store.fetch(new Request('http://x/v1/openapi.json', { method: 'POST' }));
  assert.is(post.status, 401, 'other methods: the key first');
  const postWithKey = await store.fetch(
    new Request('http://x/v1/openapi.json', { method: 'POST', headers: { authorization: `Bearer ${KEY}` } }),
  );
  assert.is(postWithKey.status, 405);
  assert.is(postWithKey.headers.get('allow'), 'GET, HEAD');
});

test('the base path and servers options are respected', async () => {
  const db = await sharedPGlite();
  const store = createPetStore({ db, keys: [KEY], basePath: '/api/', openapi: { servers: [{ url: 'https://pets.example.org/api' }] } });
  assert.is((await store.fetch(new Request('http://x/v1/openapi.json'))).status, 404);
  const doc = await (await store.fetch(new Request('http://x/api/openapi.json'))).json();
  assert.equal(doc.servers, [{ url: 'https://pets.example.org/api' }]);
  const root = createPetStore({ db, keys: [KEY], basePath: '' });
  const rootDoc = await (await root.fetch(new Request('http://x/openapi.json'))).json();
  assert.ok(rootDoc.servers.every((s: { url: string }) => !s.url.endsWith('/')));
});

test('openapi: false: the path is an ordinary 401, then 404', async () => {
  const db = await sharedPGlite();
  const store = createPetStore({ db, keys: [KEY], openapi: false });
  assert.is((await store.fetch(new Request('http://x/v1/openapi.json'))).status, 401);
  const withKey = await store.fetch(new Request('http://x/v1/openapi.json', { headers: { authorization: `Bearer ${KEY}` } }));
  assert.is(withKey.status, 404);
  assert.is((await withKey.json()).code, 'not_found');
});

test.run();
