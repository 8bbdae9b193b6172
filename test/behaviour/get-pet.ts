import * as assert from 'uvu/assert';
import { type BehaviourRun, area, body, createPet, expectError, expectInvalid, insertPets, withStore } from './context.js';

const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

function assertDeprecated(res: Response, deprecation = '@1795219200'): void {
  assert.is(res.headers.get('deprecation'), deprecation);
  assert.is(res.headers.get('sunset'), SUNSET);
  const link = res.headers.get('link') ?? '';
  const m = /^<([^>]+)>; rel="successor-version"$/.exec(link);
  assert.ok(m, `successor Link, got ${link}`);
  assert.is(new URL(m![1]!).pathname, '/v1/pets');
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

  test('a petId that is not a canonical decimal int64: 400 with the deprecation headers', async ({ call }) => {
    for (const id of ['abc', '01', '00', '1.0', '1e3', '+1', '-', '-01', ' 1', '1%20', '9223372036854775808', '-9223372036854775809', '99999999999999999999999', '1%00', '%2e%2e', '0x1', '%31']) {
      const res = await call(`/v1/pets/${id}`);
      if (res.status === 404) continue; // a path the URL parser normalised away is simply not a pet route
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
