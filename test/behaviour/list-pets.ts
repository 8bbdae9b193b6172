import * as assert from 'uvu/assert';
import { type BehaviourRun, area, body, expectError, expectInvalid, insertPets, nextLinkOf } from './context.js';

const names = (pets: { name: string }[]) => pets.map((p) => p.name);

/** Spec §4.1, §8 and decisions: limit, status filter, invalid and repeated parameters, keyset pagination. */
export function listPetsBehaviour(run: BehaviourRun): void {
  const test = area(run, 'GET /pets');
  const seed = (db: Parameters<typeof insertPets>[0], n: number, status?: 'available' | 'pending' | 'sold') =>
    insertPets(
      db,
      Array.from({ length: n }, (_, i) => ({ name: `pet${i + 1}`, status })),
    );

  test('an empty store: 200 [] and no Link', async ({ call }) => {
    const res = await call('/v1/pets');
    assert.is(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(await body(res), []);
    assert.is(res.headers.get('link'), null);
  });

  test('default limit 20, ordered by id ascending, a plain array of Pet', async ({ call, db }) => {
    await seed(db, 25);
    const res = await call('/v1/pets');
    const pets = await body(res);
    assert.is(pets.length, 20);
    assert.equal(
      names(pets),
      Array.from({ length: 20 }, (_, i) => `pet${i + 1}`),
    );
    for (let i = 1; i < pets.length; i++) assert.ok(pets[i].id > pets[i - 1].id);
    assert.equal(Object.keys(pets[0]).sort(), ['categoryId', 'id', 'name', 'status']);
    assert.ok(nextLinkOf(res));
  });

  test('limit 1 and 100 are accepted and honoured', async ({ call, db }) => {
    await seed(db, 120);
    assert.is((await body(await call('/v1/pets?limit=1'))).length, 1);
    assert.is((await body(await call('/v1/pets?limit=100'))).length, 100);
  });

  test('limit outside 1..100, empty or not an integer: 400, never clamped', async ({ call }) => {
    for (const v of ['0', '101', '-1', '1.5', '1e1', 'abc', '', ' 5', '05', '0x10', '99999999999999999999']) {
      await expectInvalid(await call(`/v1/pets?limit=${encodeURIComponent(v)}`), ['limit']);
    }
  });

  test('status filters by availability', async ({ call, db }) => {
    await insertPets(db, [
      { name: 'a', status: 'available' },
      { name: 'p', status: 'pending' },
      { name: 's', status: 'sold' },
      { name: 'a2', status: 'available' },
    ]);
    assert.equal(names(await body(await call('/v1/pets?status=available'))), ['a', 'a2']);
    assert.equal(names(await body(await call('/v1/pets?status=pending'))), ['p']);
    assert.equal(names(await body(await call('/v1/pets?status=sold'))), ['s']);
    assert.equal(names(await body(await call('/v1/pets'))), ['a', 'p', 's', 'a2']);
  });

  test('unknown or empty status: 400', async ({ call }) => {
    for (const v of ['', 'Available', 'lost', 'available,sold']) await expectInvalid(await call(`/v1/pets?status=${v}`), ['status']);
  });

  test('a repeated limit, status or cursor: 400, even with equal values', async ({ call }) => {
    await expectInvalid(await call('/v1/pets?limit=5&limit=5'), ['limit']);
    await expectInvalid(await call('/v1/pets?status=sold&status=sold'), ['status']);
    await expectInvalid(await call('/v1/pets?cursor=a&cursor=a'), ['cursor']);
    await expectInvalid(await call('/v1/pets?limit=5&limit=6&status=x'), ['limit', 'status']);
  });

  test('every offending parameter is named at once, a malformed cursor included', async ({ call }) => {
    await expectInvalid(await call('/v1/pets?limit=abc&status=sold&status=sold&cursor=%21'), ['limit', 'status', 'cursor']);
    await expectInvalid(await call('/v1/pets?limit=0&status=lost&cursor=x'), ['limit', 'status', 'cursor']);
    await expectInvalid(await call('/v1/pets?limit=0&cursor=&cursor='), ['limit', 'cursor']);
  });

  test('unknown parameters are ignored, repeated or not', async ({ call, db }) => {
    await seed(db, 3);
    const res = await call('/v1/pets?foo=1&foo=2&offset=1&page=2');
    assert.is(res.status, 200);
    assert.is((await body(res)).length, 3);
  });

  test('keyset pagination: Link rel="next" with cursor, limit and status; none on the last page', async ({ call, db }) => {
    await seed(db, 7, 'sold');
    await seed(db, 2, 'pending');
    const seen: string[] = [];
    let path: string | undefined = '/v1/pets?limit=3&status=sold';
    let pages = 0;
    while (path) {
      const res = await call(path);
      assert.is(res.status, 200);
      const pets = await body(res);
      seen.push(...names(pets));
      for (const p of pets) assert.is(p.status, 'sold');
      path = nextLinkOf(res);
      if (path) {
        const q = new URL(path, 'http://x').searchParams;
        assert.is(q.get('limit'), '3');
        assert.is(q.get('status'), 'sold');
        assert.ok(q.get('cursor'));
        assert.match(res.headers.get('link')!, /^<http[^>]+>; rel="next"$/);
      }
      pages++;
    }
    assert.is(pages, 3);
    assert.equal(
      seen,
      Array.from({ length: 7 }, (_, i) => `pet${i + 1}`),
    );
  });

  test('a full last page has no Link', async ({ call, db }) => {
    await seed(db, 4);
    const first = await call('/v1/pets?limit=2');
    const last = await call(nextLinkOf(first)!);
    assert.is((await body(last)).length, 2);
    assert.is(last.headers.get('link'), null);
  });

  test('pets created between pages are listed exactly once', async ({ call, db }) => {
    await seed(db, 5);
    const first = await call('/v1/pets?limit=3');
    const ids = (await body(first)).map((p: { id: bigint }) => p.id);
    await insertPets(db, [{ name: 'late' }]);
    const second = await body(await call(nextLinkOf(first)!));
    const all = [...ids, ...second.map((p: { id: bigint }) => p.id)];
    assert.is(new Set(all.map(String)).size, all.length);
    assert.equal(
      second.map((p: { name: string }) => p.name),
      ['pet4', 'pet5', 'late'],
    );
  });

  test('a malformed cursor, or one used with another status: 400', async ({ call, db }) => {
    await seed(db, 3, 'sold');
    for (const c of ['x', 'AAAA', '!!!', 'cGV0czo6', btoa('pets::abc'), btoa('orders::1'), btoa('pets::99999999999999999999')]) {
      await expectInvalid(await call(`/v1/pets?cursor=${encodeURIComponent(c)}`), ['cursor']);
    }
    await expectInvalid(await call('/v1/pets?cursor='), ['cursor']);
    const next = nextLinkOf(await call('/v1/pets?limit=1&status=sold'))!;
    const cursor = new URL(next, 'http://x').searchParams.get('cursor')!;
    await expectInvalid(await call(`/v1/pets?limit=1&status=pending&cursor=${cursor}`), ['cursor']);
    await expectInvalid(await call(`/v1/pets?limit=1&cursor=${cursor}`), ['cursor']);
    assert.is((await call(`/v1/pets?limit=1&status=sold&cursor=${cursor}`)).status, 200);
  });

  test('ids past 2^53 are listed exactly and paginate', async ({ call, db }) => {
    const ids = [9007199254740993n, 9223372036854775806n, 9223372036854775807n];
    await insertPets(
      db,
      ids.map((id) => ({ id, name: `big${id}`, categoryId: -9223372036854775808n })),
    );
    const first = await call('/v1/pets?limit=2');
    const page1 = await body(first);
    assert.equal(
      page1.map((p: { id: bigint }) => p.id),
      ids.slice(0, 2),
    );
    assert.is(page1[0].categoryId, -9223372036854775808n);
    const page2 = await body(await call(nextLinkOf(first)!));
    assert.equal(
      page2.map((p: { id: bigint }) => p.id),
      [ids[2]],
    );
  });

  test('a query string that is not UTF-8 or has odd escapes is a clear 400 or ignored, never 500', async ({ call }) => {
    await expectInvalid(await call('/v1/pets?limit=%FF'), ['limit']);
    assert.is((await call('/v1/pets?%FF=1&a=%')).status, 200);
    await expectError(await call('/v1/pets?status=%00'), 400, 'invalid_request');
  });

  test.run();
}
