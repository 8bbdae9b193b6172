import * as assert from 'uvu/assert';
import { type BehaviourRun, area, body, createPet, expectError, expectInvalid } from './context.js';

const INT64_MAX = '9223372036854775807';
const INT64_MIN = '-9223372036854775808';

/** Spec §4.2 and decisions: default status, name, int64, id, unknown properties, request body. */
export function createPetBehaviour(run: BehaviourRun): void {
  const test = area(run, 'POST /pets');
  const post = (call: Parameters<Parameters<typeof test>[1]>[0]['call'], json: string, headers?: Record<string, string>) =>
    call('/v1/pets', { method: 'POST', body: json, headers });

  test('201 with the stored pet, its assigned id and its Location', async ({ call }) => {
    const res = await post(call, '{"name":"Rex","categoryId":7,"status":"pending"}');
    assert.is(res.status, 201);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const pet = await body(res);
    assert.equal(pet, { id: pet.id, name: 'Rex', categoryId: 7n, status: 'pending' });
    assert.is(typeof pet.id, 'bigint');
    assert.ok(new URL(res.headers.get('location')!).pathname === `/v1/pets/${pet.id}`);
  });

  test('status omitted: stored and returned as available', async ({ call }) => {
    const pet = await createPet(call, '{"name":"Tom","categoryId":1}');
    assert.is(pet.status, 'available');
    const again = await body(await call(`/v1/pets/${pet.id}`));
    assert.is(again.status, 'available');
  });

  test('ids are assigned by the service and unique', async ({ call }) => {
    const a = await createPet(call, '{"name":"a","categoryId":1}');
    const b = await createPet(call, '{"name":"a","categoryId":1}');
    assert.is.not(a.id, b.id);
  });

  test('categoryId: the whole int64 range round-trips exactly', async ({ call }) => {
    for (const value of [INT64_MAX, INT64_MIN, '9007199254740993', '-9007199254740993', '0', '-0']) {
      const pet = await createPet(call, `{"name":"n","categoryId":${value}}`);
      assert.is(pet.categoryId, BigInt(value), value);
      const text = await (await call(`/v1/pets/${pet.id}`)).text();
      assert.ok(text.includes(`"categoryId":${BigInt(value)}`), text);
    }
  });

  test('categoryId outside int64, with a fraction or exponent, or as a string: 400', async ({ call }) => {
    for (const value of [
      '9223372036854775808',
      '-9223372036854775809',
      '1.0',
      '1e3',
      '1E3',
      '1.5',
      '1e309',
      '"1"',
      'null',
      'true',
      '[]',
      '{}',
    ]) {
      await expectInvalid(await post(call, `{"name":"n","categoryId":${value}}`), ['categoryId']);
    }
  });

  test('an id sent by the client: 400', async ({ call }) => {
    await expectInvalid(await post(call, '{"id":5,"name":"n","categoryId":1}'), ['id']);
    await expectInvalid(await post(call, '{"id":null,"name":"n","categoryId":1}'), ['id']);
  });

  test('unknown properties are ignored, and not returned', async ({ call }) => {
    const pet = await createPet(call, '{"name":"n","categoryId":1,"color":"red","tags":[1,{"a":2}],"__proto__":{"x":1},"constructor":1}');
    assert.equal(Object.keys(pet).sort(), ['categoryId', 'id', 'name', 'status']);
  });

  test('missing required fields: 400 naming each', async ({ call }) => {
    await expectInvalid(await post(call, '{}'), ['name', 'categoryId']);
    await expectInvalid(await post(call, '{"name":"n"}'), ['categoryId']);
    await expectInvalid(await post(call, '{"categoryId":1}'), ['name']);
  });

  test('every offending field is named at once', async ({ call }) => {
    const err = await expectInvalid(await post(call, '{"name":"","categoryId":"x","status":"lost","id":1}'), [
      'name',
      'categoryId',
      'status',
      'id',
    ]);
    assert.ok(err.details.length >= 4);
  });

  test('status must be one of available, pending, sold', async ({ call }) => {
    for (const s of ['"Available"', '"lost"', '""', 'null', '1']) {
      await expectInvalid(await post(call, `{"name":"n","categoryId":1,"status":${s}}`), ['status']);
    }
    for (const s of ['available', 'pending', 'sold'])
      assert.is((await createPet(call, `{"name":"n","categoryId":1,"status":"${s}"}`)).status, s);
  });

  test('name: 1 to 255 code points, not blank, stored exactly as sent', async ({ call }) => {
    const emoji = '🐶'.repeat(255); // 510 UTF-16 units, 255 code points
    assert.is((await createPet(call, JSON.stringify({ name: emoji, categoryId: 1 }))).name, emoji);
    const spaced = '  Rex  ';
    assert.is((await createPet(call, JSON.stringify({ name: spaced, categoryId: 1 }))).name, spaced);
    const odd = `Robert'); DROP TABLE petstore_pets;-- "\\ \n\t é 字`;
    assert.is((await createPet(call, JSON.stringify({ name: odd, categoryId: 1 }))).name, odd);
    for (const name of ['', ' ', '\t\n ', 'a'.repeat(256), '🐶'.repeat(256)]) {
      await expectInvalid(await post(call, JSON.stringify({ name, categoryId: 1 })), ['name']);
    }
    for (const name of [1, null, ['a'], { a: 1 }]) await expectInvalid(await post(call, JSON.stringify({ name, categoryId: 1 })), ['name']);
  });

  test('a name with U+0000 or a lone surrogate: 400', async ({ call }) => {
    for (const escaped of ['a\\u0000b', '\\ud800', 'x\\udc00', '\\udbff\\u0041']) {
      await expectInvalid(await post(call, `{"name":"${escaped}","categoryId":1}`), ['name']);
    }
    assert.is((await createPet(call, '{"name":"\\ud83d\\udc36","categoryId":1}')).name, '🐶');
  });

  test('the media type must be application/json: 415 otherwise', async ({ call }) => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', 'json', 'application/json-patch+json']) {
      await expectError(await post(call, '{"name":"n","categoryId":1}', { 'content-type': type }), 415, 'unsupported_media_type');
    }
    // An empty Content-Type is no media type at all.
    await expectError(await post(call, '{"name":"n","categoryId":1}', { 'content-type': '' }), 415, 'unsupported_media_type');
    for (const type of ['Application/JSON', 'application/json; charset=utf-8', 'APPLICATION/JSON;charset=UTF-8']) {
      assert.is((await post(call, '{"name":"n","categoryId":1}', { 'content-type': type })).status, 201, type);
    }
  });

  test('malformed JSON: 400 invalid_json', async ({ call }) => {
    for (const text of [
      '{',
      '{"name":"n",}',
      "{'name':'n'}",
      '{"name":"n" "categoryId":1}',
      'nul',
      '{"a":1}x',
      '\u0000',
      '{"name":"\u0001"}',
    ]) {
      await expectError(await post(call, text), 400, 'invalid_json');
    }
    await expectError(await post(call, ''), 400, 'invalid_json');
  });

  test('a JSON value that is not an object: 400', async ({ call }) => {
    for (const text of ['[]', '[{"name":"n","categoryId":1}]', '"n"', '1', 'null', 'true']) {
      await expectError(await post(call, text), 400, 'invalid_request');
    }
  });

  test('a body over 65,536 bytes: 413, with or without Content-Length', async ({ call }) => {
    const big = `{"name":"n","categoryId":1,"pad":"${'x'.repeat(70_000)}"}`;
    await expectError(await post(call, big), 413, 'payload_too_large');
    const chunks = [big.slice(0, 30_000), big.slice(30_000)].map((s) => new TextEncoder().encode(s));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    await expectError(await call('/v1/pets', { method: 'POST', body: stream }), 413, 'payload_too_large');
  });

  test('a body of exactly 65,536 bytes is accepted', async ({ call }) => {
    const head = '{"name":"n","categoryId":1}';
    const exact = head + ' '.repeat(65_536 - head.length);
    assert.is((await post(call, exact)).status, 201);
    await expectError(await post(call, `${exact} `), 413, 'payload_too_large');
  });

  test.run();
}
