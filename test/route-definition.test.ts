import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import type { RouteRequest, StoreContext } from '../src/routes/context.js';
import { ApiError } from '../src/errors.js';
import { jsonResponse, standardResponse, toResponse } from '../src/http/answer.js';
import { operationObject } from '../src/openapi/operation.js';
import { defineRoute } from '../src/routes/define.js';
import { int64Path } from '../src/schemas/int64.js';
import { textParam } from '../src/schemas/param.js';
import { limitQuery } from '../src/schemas/query.js';

const store = {
  now: () => new Date('2026-01-01T00:00:00Z'),
  basePath: '/v1',
  deprecation: { deprecatedAt: new Date(0), sunsetAt: new Date('2030-01-01T00:00:00Z') },
} as StoreContext;
const seen: unknown[] = [];

/** A definition with a path parameter, a query parameter, a header and a body, all validated together. */
const route = defineRoute({
  method: 'POST',
  path: '/things/:thingId',
  operationId: 'updateThing',
  summary: 'Update a thing',
  description: 'Test operation.',
  tags: ['test'],
  request: {
    params: { thingId: int64Path('ID of the thing.') },
    query: { limit: limitQuery },
    headers: { 'X-Mode': textParam({ schema: v.picklist(['fast', 'slow'], 'must be fast or slow'), description: 'Mode.' }) },
    body: { schema: v.object({ name: v.string('must be a string') }), component: 'Thing' },
  },
  refine: ({ query }) => (query.limit === 13 ? [{ path: 'limit', message: 'must not be 13' }] : undefined),
  responses: { '200': { description: 'Done.', body: 'Thing' }, '400': 'BadRequest', '401': 'Unauthorized' },
  handler: async (input) => {
    // The handler's input is typed by the definition: these lines fail `npm run typecheck` otherwise.
    const id: bigint = input.params.thingId;
    const limit: number = input.query.limit;
    const mode: 'fast' | 'slow' | undefined = input.headers['X-Mode'];
    const name: string = input.body.name;
    // Not `any`: a wrong type or an undeclared parameter is a type error.
    // @ts-expect-error thingId is a bigint
    const wrong: string = input.params.thingId;
    // @ts-expect-error no such query parameter
    void input.query.offset;
    void wrong;
    seen.push({ id, limit, mode, name });
    return jsonResponse(200, '{}');
  },
});

function call(path: string, params: Record<string, string>, body: string, headers: Record<string, string> = {}): Promise<Response> {
  const request = new Request(`http://x/v1${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  const req: RouteRequest = { request, url: new URL(request.url), params, store, principal: 'p' };
  return route.handler(req).then((answer) => toResponse(answer, request.method, standardResponse));
}

async function details(promise: Promise<Response>): Promise<string[]> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, ApiError);
    assert.is((error as ApiError).status, 400);
    return (error as ApiError).details!.map((d) => d.path);
  }
  assert.unreachable('expected a 400');
  return [];
}

test('the handler receives parsed, typed input', async () => {
  seen.length = 0;
  const res = await call('/things/9223372036854775807?limit=5', { thingId: '9223372036854775807' }, '{"name":"a"}', { 'x-mode': 'slow' });
  assert.is(res.status, 200);
  assert.equal(seen, [{ id: 9223372036854775807n, limit: 5, mode: 'slow', name: 'a' }]);
  await call('/things/-1', { thingId: '-1' }, '{"name":"b"}');
  assert.equal(seen[1], { id: -1n, limit: 20, mode: undefined, name: 'b' });
});

test('one 400 names every bad field at once: path parameter, query, header and body', async () => {
  const paths = await details(call('/things/01?limit=abc', { thingId: '01' }, '{"name":1}', { 'x-mode': 'medium' }));
  assert.equal(paths, ['thingId', 'limit', 'X-Mode', 'name']);
  assert.equal(await details(call('/things/1?limit=1&limit=2', { thingId: '1' }, '{}')), ['limit', 'name']);
});

test('cross-field rules run once every field is valid on its own', async () => {
  assert.equal(await details(call('/things/1?limit=13', { thingId: '1' }, '{"name":"a"}')), ['limit']);
  assert.equal(await details(call('/things/x?limit=13', { thingId: 'x' }, '{"name":"a"}')), ['thingId']);
});

test('a definition whose path and params disagree is refused at definition time', () => {
  assert.throws(
    () =>
      defineRoute({
        method: 'GET',
        path: '/a/:id',
        operationId: 'a',
        summary: 'a',
        description: 'a',
        tags: [],
        responses: {},
        handler: async () => jsonResponse(200, '{}'),
      }),
    /path names \[id\] but request\.params declares \[\]/,
  );
});

test('the document reads the definition: parameters of every location, body, responses, media type, public', () => {
  const op = operationObject(route, () => ({}));
  assert.equal(
    op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`),
    ['path:thingId', 'query:limit', 'header:X-Mode'],
  );
  assert.equal(op.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/Thing' });
  assert.equal(Object.keys(op.responses), ['200', '400', '401']);
  const page = defineRoute({
    method: 'GET',
    path: '/docs',
    operationId: 'getDocs',
    summary: 'Docs',
    description: 'HTML.',
    tags: ['meta'],
    public: true,
    responses: { '200': { description: 'The page.', mediaType: 'text/html', body: { type: 'string' } } },
    handler: async () => jsonResponse(200, '{}'),
  });
  const docs = operationObject(page, () => ({}));
  assert.equal(docs.responses['200'].content, { 'text/html': { schema: { type: 'string' } } });
  assert.equal(docs.security, []);
});

test.run();
