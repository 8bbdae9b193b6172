import * as assert from 'uvu/assert';
import { type BehaviourRun, area, body, createPet, expectError, expectInvalid, insertPets, withStore } from './context.js';

const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

function assertDeprecated(res: Response, deprecation = '@1795219200'): void {
  assert.is(res.headers.get('deprecation'), deprecation);
  assert.is(res.headers.get('sunset'), SUNSET);
  const link = res.headers.get('link') ?? '';
  const m = /^<([^>]+)>; rel="successor-version"$/.exec(link);
  assert.ok(m, `successor Link, got ${link}`);
  assert.is(new URL(m[1]!).pathname, '/v1/pets');
}

/** Spec §4.3, §9 and decisions: malformed petId, int64, deprecation headers, 410 after sunset. */
export function getPetBehaviour(run: BehaviourRun): void {
  const test = area(run, 'GET /pets/{petId}');

  test('200 with the pet and Deprecation, Sunset, successor Link', async ({ call }) => {
    const pet = await createPet(call, '{"name":"Rex","categoryId":3,"status":"sold"}');
    const res = await call(`/v1/pets/${pet.id}`);
    assert.is(res.status, 200);
    assertDeprecated(res);
    assert.equal(await body(res), pet);
  });

  test('404 for an id that does not exist, with the deprecation headers', async ({ call }) => {
    const res = await call('/v1/pets/424242');
    assertDeprecated(res);
    await expectError(res, 404, 'not_found');
  });

  test('the extremes of int64 are valid ids and round-trip exactly', async ({ call, db }) => {
    await insertPets(db, [{ id: 9223372036854775807n, name: 'max', categoryId: 9223372036854775807n }]);
    const res = await call('/v1/pets/9223372036854775807');
    assert.is(res.status, 200);
    assert.match(await res.clone().text(), /"id":9223372036854775807,/);
    assert.equal(await body(res), { id: 9223372036854775807n, name: 'max', categoryId: 9223372036854775807n, status: 'available' });
    await expectError(await call('/v1/pets/-9223372036854775808'), 404, 'not_found');
    await expectError(await call('/v1/pets/0'), 404, 'not_found');
    await expectError(await call('/v1/pets/-0'), 404, 'not_found');
  });

  test('a petId that is not a canonical decimal int64: 400 with the deprecation headers, pet 1 existing', async ({ call }) => {
    // The pet exists, so a lenient parser reading `01`, `+1`, ` 1`, `0x1` or `1e0` as its id would answer 200.
    const pet = await createPet(call, '{"name":"one","categoryId":1}');
    const id = String(pet.id);
    assert.is(id, '1', 'an empty store (identity restarted) gives id 1, so `01`, `+1`, `%201`, `0x1` are the variants');
    assert.is((await call(`/v1/pets/${id}`)).status, 200);
    const malformed = [
      `0${id}`,
      `00${id}`,
      `+${id}`,
      `%20${id}`,
      `${id}%20`,
      `%09${id}`,
      `0x${pet.id.toString(16)}`,
      `${id}e0`,
      `${id}.0`,
      `${id}_0`,
      `%2B${id}`,
      `-0${id}`,
      `${id}%00`,
      `%3${id.slice(0, 1)}${id.slice(1)}`,
      'abc',
      '00',
      '1e2',
      '-',
      '١',
      '9223372036854775808',
      '-9223372036854775809',
      '99999999999999999999999',
    ];
    for (const bad of malformed) {
      const res = await call(`/v1/pets/${bad}`);
      assertDeprecated(res);
      await expectInvalid(res, ['petId']);
    }
  });

  test('from the sunset instant on: 410 Gone with the Error body and the headers', async ({ db }) => {
    const sunset = new Date('2030-12-05T00:00:00Z');
    await withStore(run, db, { now: () => sunset }, async (call) => {
      const res = await call('/v1/pets/1');
      assertDeprecated(res);
      await expectError(res, 410, 'gone');
      await expectError(await call('/v1/pets/abc'), 410, 'gone');
    });
    await withStore(run, db, { now: () => new Date(sunset.getTime() - 1) }, async (call) => {
      await expectError(await call('/v1/pets/1'), 404, 'not_found');
    });
  });

  test('the deprecation date is an option', async ({ db }) => {
    await withStore(run, db, { deprecatedAt: new Date('2027-01-01T00:00:00Z') }, async (call) => {
      assertDeprecated(await call('/v1/pets/1'), '@1798761600');
    });
  });

  test('other operations carry no deprecation headers', async ({ call }) => {
    const res = await call('/v1/pets');
    assert.is(res.headers.get('deprecation'), null);
    assert.is(res.headers.get('sunset'), null);
  });

  test.run();
}
