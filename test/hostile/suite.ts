import type { Kysely } from 'kysely';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Database } from '../../src/index.js';
import { resetDatabase } from '../helpers/db.js';
import { type Call, KEY, type Transport, openStore } from '../helpers/harness.js';
import { expectStatus, lazyBody, presented, toJson, within } from './check.js';
import { registerProperties } from './properties.js';

export interface HostileOptions {
  /** Bytes a 100 MiB upload may be read before the 413 (socket buffers add to this). @default 1 MiB */
  maxPulledBytes?: number;
  /**
   * The transport's limit on a request head (Node's parser: 16 KiB, answered 414/431 below the
   * router, tested in node-bridge.test.ts). Long query strings and headers are sized to fit it.
   * @default unlimited (in-process)
   */
  maxHeadBytes?: number;
}

export interface HostileContext {
  call: Call;
  db: Kysely<Database>;
}

const MiB = 1024 * 1024;
const pet = (name: unknown, categoryId: unknown = 1n) => toJson({ name, categoryId });

/**
 * Hostile input, written once as a function of the transport: every answer is a well-formed Error
 * with a 4xx (never 5xx, never a hang), and nothing without the exact key gets a 2xx.
 */
export function hostileInputSuite(transport: Transport, getDb: () => Promise<Kysely<Database>>, options: HostileOptions = {}) {
  const test = suite<HostileContext>(`hostile input (${transport.name})`);
  let close: (() => Promise<void>) | undefined;

  test.before(async (ctx) => {
    ctx.db = await getDb();
    const opened = await openStore(transport, ctx.db, { onError: () => {} });
    ctx.call = (path, init) => within(opened.call(path, init), undefined, `${init?.method ?? 'GET'} ${path.slice(0, 80)}`);
    close = opened.close;
  });
  test.before.each(async ({ db }) => {
    await resetDatabase(db);
  });
  test.after(async () => {
    await close?.();
  });

  const post = (call: Call, body: string | Uint8Array | ReadableStream<Uint8Array>, headers?: Record<string, string>) =>
    call('/v1/pets', { method: 'POST', body, headers });

  test('malformed and truncated JSON: 400 invalid_json', async ({ call }) => {
    const valid = '{"name":"Rex","categoryId":7,"status":"sold"}';
    for (let i = 1; i < valid.length; i++) await expectStatus(await post(call, valid.slice(0, i)), 400);
    for (const bad of [
      '{',
      '}',
      '{"name"}',
      "{'name':'x'}",
      '{"name":"x",}',
      '{"a":1}{"b":2}',
      'nul',
      'tru',
      '{"name":"\\x"}',
      '{"name":"\\u12"}',
      '{"name":"a\nb"}',
      'NaN',
      '{"categoryId":Infinity}',
      '{"categoryId":0x10}',
      '{"categoryId":01}',
      '{"categoryId":+1}',
      '{"categoryId":.5}',
      '\u0000',
    ]) {
      await expectStatus(await post(call, bad), 400, 'invalid_json');
    }
    for (const notObject of ['[]', '"x"', '1', 'null', 'true']) await expectStatus(await post(call, notObject), 400, 'invalid_request');
    await expectStatus(await post(call, ''), 400, 'invalid_json');
    await expectStatus(await post(call, new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])), 400, 'invalid_json');
  });

  test('a body cut inside a UTF-8 character is a 400, and the next body decodes whole (one decoder serves all)', async ({ call }) => {
    const euro = new TextEncoder().encode('{"name":"\u20ac","categoryId":1}');
    const cut = euro.slice(0, euro.indexOf(0xe2) + 2); // '{"name":"' and two of the euro sign's three bytes
    await expectStatus(await post(call, cut), 400, 'invalid_json');
    const created = await expectStatus(await post(call, euro), 201);
    assert.is((created.json as { name: string }).name, '\u20ac');
  });

  test('10,000 levels of nesting: 400, no stack overflow', async ({ call }) => {
    const n = 10_000;
    await expectStatus(await post(call, '['.repeat(n) + ']'.repeat(n)), 400, 'invalid_json');
    await expectStatus(await post(call, '{"a":'.repeat(n) + '1' + '}'.repeat(n)), 400, 'invalid_json');
    await expectStatus(await post(call, `{"name":"x","categoryId":1,"extra":${'['.repeat(n)}`), 400, 'invalid_json');
  });

  test('huge strings and bodies: 400 past 255 characters, 413 past 64 KiB, with and without Content-Length', async ({ call }) => {
    await expectStatus(await post(call, pet('x'.repeat(60_000))), 400, 'invalid_request');
    await expectStatus(await post(call, pet('x'.repeat(MiB))), 413, 'payload_too_large');
    const oneMiB = new Uint8Array(MiB).fill(0x20);
    await expectStatus(await post(call, oneMiB), 413, 'payload_too_large');
    await expectStatus(await post(call, oneMiB, { 'content-length': String(MiB) }), 413, 'payload_too_large');
    const streamed = lazyBody(MiB);
    await expectStatus(await post(call, streamed.stream), 413, 'payload_too_large');
  });

  for (const declared of [false, true]) {
    test(`100 MiB ${declared ? 'with' : 'without'} Content-Length: 413 early, most of it never read`, async ({ call }) => {
      const body = lazyBody(100 * MiB);
      const headers = declared ? { 'content-length': String(100 * MiB) } : undefined;
      await expectStatus(await post(call, body.stream, headers), 413, 'payload_too_large');
      assert.ok(body.pulled() <= (options.maxPulledBytes ?? MiB), `${body.pulled()} bytes were pulled`);
      await body.stream.cancel().catch(() => {});
    });
  }

  test('a wrong key with a 100 MiB body: 401 before the body is read', async ({ call }) => {
    const body = lazyBody(100 * MiB);
    await expectStatus(await post(call, body.stream, { authorization: 'Bearer nope' }), 401, 'unauthorized');
    assert.ok(body.pulled() <= (options.maxPulledBytes ?? MiB));
    await body.stream.cancel().catch(() => {});
  });

  test('wrong content types: 415', async ({ call }) => {
    for (const type of [
      'text/plain',
      'application/jsonx',
      'application/json-patch+json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'json',
      'application/json, text/plain',
      '*/*',
      '',
    ]) {
      await expectStatus(await post(call, pet('Rex'), { 'content-type': type }), 415, 'unsupported_media_type');
    }
    for (const type of ['APPLICATION/JSON', 'application/json; charset=utf-8', 'Application/Json;charset=UTF-8']) {
      await expectStatus(await post(call, pet('Rex'), { 'content-type': type }), 201);
    }
  });

  test('__proto__ and constructor keys are plain data: no pollution, the pet is created as sent', async ({ call }) => {
    const bodies = [
      '{"__proto__":{"id":5,"status":"sold"},"name":"proto","categoryId":1}',
      '{"constructor":{"prototype":{"polluted":true}},"name":"ctor","categoryId":2}',
      '{"name":"p2","categoryId":3,"__proto__":null,"hasOwnProperty":1,"toString":"x"}',
    ];
    for (const body of bodies) {
      const a = await expectStatus(await post(call, body), 201);
      assert.is(a.json.status, 'available');
    }
    assert.is(({} as Record<string, unknown>).polluted, undefined);
    assert.is(({} as Record<string, unknown>).id, undefined);
    assert.is(Object.prototype.toString.call([]), '[object Array]');
  });

  test('NUL bytes and lone surrogates in names: 400 naming `name`', async ({ call }) => {
    for (const body of [
      '{"name":"a\\u0000b","categoryId":1}',
      '{"name":"\\ud800","categoryId":1}',
      '{"name":"x\\udc00y","categoryId":1}',
      '{"name":"\\udc00\\ud800","categoryId":1}',
    ]) {
      const a = await expectStatus(await post(call, body), 400, 'invalid_request');
      assert.equal(
        a.json.details.map((d: { path: string }) => d.path),
        ['name'],
      );
    }
  });

  test('SQL-looking strings are stored and returned verbatim', async ({ call }) => {
    const names = [
      "'; drop table petstore_pets; --",
      "Robert'); DROP TABLE Students;--",
      '" or 1=1 --',
      '$1',
      '$$ x $$',
      '\\',
      '%_%',
      "E'\\x00'",
      '/* */ select pg_sleep(10)',
    ];
    for (const name of names) {
      const created = await expectStatus(await post(call, pet(name)), 201);
      assert.is(created.json.name, name);
      const got = await expectStatus(await call(`/v1/pets/${created.json.id}`), 200);
      assert.is(got.json.name, name);
    }
    const list = await expectStatus(await call('/v1/pets?limit=100'), 200);
    assert.equal(
      list.json.map((p: { name: string }) => p.name),
      names,
    );
    await expectStatus(await call(`/v1/pets?status=${encodeURIComponent("sold' or '1'='1")}`), 400, 'invalid_request');
  });

  test('numbers: only exact int64 integer literals pass', async ({ call }) => {
    for (const n of [
      '1e309',
      '-1e309',
      '1.0',
      '1e3',
      '1E3',
      '0.5',
      '"1"',
      '9223372036854775808',
      '-9223372036854775809',
      '1' + '0'.repeat(5000),
      'true',
      'null',
      '[1]',
      '{}',
    ]) {
      const a = await expectStatus(await post(call, `{"name":"n","categoryId":${n}}`), 400, 'invalid_request');
      assert.equal(
        a.json.details.map((d: { path: string }) => d.path),
        ['categoryId'],
      );
    }
    for (const [n, stored] of [
      ['-0', '0'],
      ['0', '0'],
      ['9223372036854775807', '9223372036854775807'],
      ['-9223372036854775808', '-9223372036854775808'],
    ]) {
      const a = await expectStatus(await post(call, `{"name":"n","categoryId":${n}}`), 201);
      assert.ok(a.text.includes(`"categoryId":${stored},`), a.text);
    }
  });

  test('long query strings and headers', async ({ call }) => {
    // Sizes capped to leave 1 KiB of the transport's head limit for the rest of the request.
    const n = (size: number) => Math.min(size, (options.maxHeadBytes ?? Infinity) - 1024);
    await expectStatus(await call(`/v1/pets?junk=${'a'.repeat(n(100_000))}`), 200);
    await expectStatus(await call(`/v1/pets?${'x=1&'.repeat(Math.floor(n(20_000) / 4))}limit=2`), 200);
    await expectStatus(await call('/v1/pets', { headers: { 'x-junk': 'a'.repeat(n(60_000)) } }), 200);
    await expectStatus(await call(`/v1/pets?limit=${'1'.repeat(n(10_000))}`), 400, 'invalid_request');
    await expectStatus(await call(`/v1/pets?cursor=${'A'.repeat(n(10_000))}`), 400, 'invalid_request');
    await expectStatus(await call(`/v1/pets?status=${'sold'.repeat(Math.floor(n(40_000) / 4))}`), 400, 'invalid_request');
  });

  test('odd paths: 4xx with the Error body', async ({ call }) => {
    for (const path of [
      '/v1//pets',
      '/v1/pets/%2e%2e',
      '/v1/pets/1%00',
      '/v1/pets/%00',
      '/v1/pets/1;drop',
      `/v1/pets/${'9'.repeat(10_000)}`,
      '/v1/pets/0x10',
      '/v1/pets/1e3',
      '/v1/pets/+1',
      '/v1/pets/%201',
      '/v1/pets/01',
      '/v1/%70ets',
      '/v1/pets/%E2%80%AE1',
      '/v1/pets/%ff',
      '/v1/store/orders/1',
      '/v2/pets',
      '/',
      '/v1',
      '/v1/',
    ]) {
      await expectStatus(await call(path), [400, 404], undefined);
    }
    await expectStatus(await call('/v1/pets/1'), 404, 'not_found');
  });

  test('duplicate parameters: 400 for limit, status and cursor; ignored for unknown ones', async ({ call }) => {
    for (const q of ['limit=1&limit=1', 'limit=1&limit=2', 'status=sold&status=sold', 'cursor=a&cursor=a', 'limit=1&LIMIT=2&limit=3']) {
      await expectStatus(await call(`/v1/pets?${q}`), 400, 'invalid_request');
    }
    await expectStatus(await call('/v1/pets?x=1&x=2'), 200);
  });

  test('other methods: 405 with Allow', async ({ call }) => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const a = await expectStatus(await call('/v1/pets', { method }), 405, 'method_not_allowed');
      assert.ok(a.headers.get('allow'));
    }
  });

  test('Authorization variants: only the exact key gets through', async ({ call }) => {
    const accepted = [`Bearer ${KEY}`, `bearer ${KEY}`, `BEARER ${KEY}`, `Bearer  ${KEY}`, `Bearer ${KEY} `];
    for (const authorization of accepted) await expectStatus(await call('/v1/pets', { headers: { authorization } }), 200);
    const refused = [
      ...[1, 5, KEY.length - 1].map((n) => `Bearer ${KEY.slice(0, n)}`),
      ...[1, 5, KEY.length - 1].map((n) => `Bearer ${KEY.slice(-n)}`),
      `Bearer ${KEY}x`,
      `Bearer x${KEY}`,
      `Bearer ${KEY.toUpperCase()}`,
      `Bearer ${KEY}${KEY}`,
      `Bearer ${'k'.repeat(10_240)}`,
      `Bearer ${KEY.slice(0, 5)}${'k'.repeat(10_240)}`,
      `Basic ${btoa(`user:${KEY}`)}`,
      `Basic ${KEY}`,
      `Token ${KEY}`,
      KEY,
      `Bearer\t${KEY}`,
      `Bearer:${KEY}`,
      `Bearer=${KEY}`,
      `Bearer ${KEY}, Bearer ${KEY}`,
      `Bearer ${KEY},`,
      `Bearer "${KEY}"`,
      'Bearer',
      'Bearer ',
      '',
    ];
    for (const authorization of refused) {
      await expectStatus(await call('/v1/pets', { headers: { authorization } }), 401, 'unauthorized', presented(authorization));
      await expectStatus(await post(call, pet('Rex'), { authorization }), 401, 'unauthorized', presented(authorization));
    }
    const twice = await call('/v1/pets', {
      headers: [
        ['authorization', `Bearer ${KEY}`],
        ['authorization', `Bearer ${KEY}`],
      ],
    });
    await expectStatus(twice, 401, 'unauthorized');
    await expectStatus(await call('/v1/pets', { anonymous: true }), 401, 'unauthorized');
    // 401 comes before everything else under the base path.
    await expectStatus(await call('/v1/nowhere', { anonymous: true }), 401);
    await expectStatus(await call('/v1/pets', { method: 'DELETE', anonymous: true }), 401);
  });

  registerProperties(test);
  return test;
}
