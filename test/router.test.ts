import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonResponse } from '../src/http/answer.js';
import { defineRoute } from '../src/routes/define.js';
import { createRouteMatcher } from '../src/pipeline/pipeline.js';
import { int64Path } from '../src/schemas/int64.js';

const doc = { summary: 's', description: 'd', tags: [], responses: {}, handler: () => Promise.resolve(jsonResponse(200, '{}')) };
const byId = defineRoute({
  ...doc,
  method: 'GET',
  path: '/things/:id',
  operationId: 'getThing',
  request: { params: { id: int64Path('id') } },
});
const search = defineRoute({ ...doc, method: 'GET', path: '/things/search', operationId: 'searchThings' });
const create = defineRoute({ ...doc, method: 'POST', path: '/things/search', operationId: 'postSearch' });

test('a path without parameters wins over a parameter at the same place, whatever the table order', () => {
  for (const table of [
    [byId, search, create],
    [search, create, byId],
  ]) {
    const match = createRouteMatcher(table, '/v1');
    assert.is(match('GET', '/v1/things/search')?.route?.operationId, 'searchThings');
    assert.is(match('GET', '/v1/things/7')?.route?.operationId, 'getThing');
    assert.equal({ ...(match('GET', '/v1/things/7') as { params: object }).params }, { id: '7' });
    assert.is(match('HEAD', '/v1/things/search')?.route?.operationId, 'searchThings');
    assert.equal(match('DELETE', '/v1/things/search'), { allow: 'GET, HEAD, POST' });
    assert.is(match('GET', '/v1/nothing'), undefined);
  }
});

test.run();
