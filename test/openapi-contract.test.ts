import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openApiDocument } from '../src/index.js';
import { createContractChecker } from './helpers/contract.js';

// The contract check guards every behavioural run; these show it fails on what it must catch.
const checker = createContractChecker(openApiDocument());
const U = 'http://petstore.test';
const json = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
const pet = '{"id":9223372036854775807,"name":"Rex","categoryId":-9223372036854775808,"status":"available"}';
const deprecation = {
  deprecation: '@1795219200',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: `<${U}/v1/pets>; rel="successor-version"`,
};
/** What every 200 of a GET operation carries (conditional GET). */
const tagged = { etag: '"2-0123456789abcdef"', 'cache-control': 'private, no-cache' };

async function rejects(fn: () => Promise<void>, pattern: RegExp): Promise<void> {
  try {
    await fn();
  } catch (error) {
    assert.match((error as Error).message, pattern);
    return;
  }
  assert.unreachable(`expected a contract failure matching ${pattern}`);
}

test('documented answers pass, int64 extremes included', async () => {
  await checker.check('GET', `${U}/v1/pets`, json(200, `[${pet}]`, tagged));
  await checker.check('GET', `${U}/v1/pets`, new Response(null, { status: 304, headers: tagged }));
  await checker.check(
    'GET',
    `${U}/v1/pets`,
    json(429, '{"code":"rate_limited","message":"x","status":429}', {
      'retry-after': '7',
      ratelimit: '"default";r=0;t=7',
      'ratelimit-policy': '"default";q=1;w=60',
    }),
  );
  await checker.check('POST', `${U}/v1/pets`, json(201, pet, { location: `${U}/v1/pets/1` }));
  await checker.check('GET', `${U}/v1/pets/1`, json(200, pet, { ...deprecation, ...tagged }));
  await checker.check('HEAD', `${U}/v1/pets/1`, new Response(null, { status: 200, headers: { ...deprecation, ...tagged } }));
  await checker.check('GET', `${U}/v1/nothing`, json(404, '{"code":"not_found","message":"no","status":404}'));
  await checker.check('GET', `${U}/elsewhere`, json(404, '{"code":"not_found","message":"no","status":404}'));
  await checker.check(
    'DELETE',
    `${U}/v1/pets`,
    json(405, '{"code":"method_not_allowed","message":"no","status":405}', { allow: 'GET, HEAD, POST' }),
  );
  await checker.check('GET', `${U}/v1/openapi.json`, json(200, '{}'));
});

test('an undocumented status fails', async () => {
  await rejects(
    () => checker.check('GET', `${U}/v1/pets`, json(404, '{"code":"not_found","message":"x","status":404}')),
    /not documented for listPets/,
  );
  await rejects(() => checker.check('GET', `${U}/v1/nothing`, json(200, '[]')), /not described/);
});

test('a missing required header fails', async () => {
  await rejects(() => checker.check('POST', `${U}/v1/pets`, json(201, pet)), /Location is missing/);
  await rejects(() => checker.check('GET', `${U}/v1/pets/1`, json(200, pet, tagged)), /Deprecation is missing/);
  await rejects(() => checker.check('GET', `${U}/v1/store/orders`, json(200, '[]')), /ETag is missing/);
  await rejects(
    () => checker.check('GET', `${U}/v1/pets`, json(401, '{"code":"unauthorized","message":"x","status":401}')),
    /WWW-Authenticate/,
  );
  await rejects(
    () => checker.check('PUT', `${U}/v1/pets`, json(405, '{"code":"method_not_allowed","message":"x","status":405}', { allow: 'GET' })),
    /Allow/,
  );
});

test('a body the document does not describe fails', async () => {
  await rejects(() => checker.check('GET', `${U}/v1/pets`, json(200, '[{"id":1,"name":"Rex"}]', tagged)), /categoryId/);
  await rejects(
    () => checker.check('GET', `${U}/v1/pets`, json(200, '[{"id":1,"name":"Rex","categoryId":1,"status":"available","extra":1}]', tagged)),
    /additional/,
  );
  await rejects(
    () =>
      checker.check('GET', `${U}/v1/pets`, json(200, '[{"id":9223372036854775808,"name":"Rex","categoryId":1,"status":"sold"}]', tagged)),
    /outside int64/,
  );
  await rejects(
    () => checker.check('GET', `${U}/v1/pets`, json(400, '{"code":"not_found","message":"x","status":404}')),
    /body does not match/,
  );
  await rejects(() => checker.check('HEAD', `${U}/v1/pets`, json(200, '[]', tagged)), /expected no body/);
  await rejects(
    () => checker.check('GET', `${U}/v1/pets`, new Response('[]', { status: 200, headers: { 'content-type': 'text/plain', ...tagged } })),
    /content-type/,
  );
});

test.run();
