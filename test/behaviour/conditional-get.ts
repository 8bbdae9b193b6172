import * as assert from 'uvu/assert';
import { addOrder } from '../../src/index.js';
import { type BehaviourRun, area, body, createPet, expectError, withStore } from './context.js';

const TAG = /^"[0-9a-z]+-[0-9a-f]{16}"$/;

/** Answers of a GET operation that can be revalidated: ETag + Cache-Control, then a 304. */
function assertTagged(res: Response): string {
  assert.is(res.status, 200);
  const tag = res.headers.get('etag') ?? '';
  assert.match(tag, TAG);
  assert.is(res.headers.get('cache-control'), 'private, no-cache');
  return tag;
}

async function assertNotModified(res: Response, tag: string): Promise<void> {
  assert.is(res.status, 304);
  assert.is(await res.text(), '');
  assert.is(res.headers.get('etag'), tag);
  assert.is(res.headers.get('cache-control'), 'private, no-cache');
  assert.is(res.headers.get('content-type'), null);
}

/** Decisions, "conditional GET": ETag on listPets, getPet, listOrders; If-None-Match -> 304; HEAD alike. */
export function conditionalGetBehaviour(run: BehaviourRun): void {
  const test = area(run, 'conditional GET');

  test('listPets: a stable ETag; If-None-Match with it -> 304 without a body', async ({ call }) => {
    await createPet(call, '{"name":"Rex","categoryId":1}');
    const tag = assertTagged(await call('/v1/pets'));
    assert.is(assertTagged(await call('/v1/pets')), tag);
    await assertNotModified(await call('/v1/pets', { headers: { 'if-none-match': tag } }), tag);
  });

  test('the tag changes with the body: a new pet makes the old tag stale (200 with the new list)', async ({ call }) => {
    await createPet(call, '{"name":"Rex","categoryId":1}');
    const before = assertTagged(await call('/v1/pets'));
    await createPet(call, '{"name":"Tom","categoryId":1}');
    const res = await call('/v1/pets', { headers: { 'if-none-match': before } });
    const after = assertTagged(res);
    assert.is.not(after, before);
    assert.is((await body(res)).length, 2);
  });

  test('the tag changes with the Link header alone: same first page, a next page appeared', async ({ call }) => {
    await createPet(call, '{"name":"Rex","categoryId":1}');
    const alone = await call('/v1/pets?limit=1');
    const tag = assertTagged(alone);
    assert.is(alone.headers.get('link'), null);
    const first = await alone.text();
    await createPet(call, '{"name":"Tom","categoryId":1}');
    const res = await call('/v1/pets?limit=1', { headers: { 'if-none-match': tag } });
    assert.is(res.status, 200);
    assert.is(await res.clone().text(), first);
    assert.match(res.headers.get('link') ?? '', /rel="next"/);
    assert.is.not(res.headers.get('etag'), tag);
  });

  test('If-None-Match: weak comparison, lists, *; no match or a malformed field -> 200', async ({ call }) => {
    const tag = assertTagged(await call('/v1/pets'));
    for (const field of [`W/${tag}`, `"nope", ${tag}`, ` "a" ,W/"b",  W/${tag} `, '*']) {
      await assertNotModified(await call('/v1/pets', { headers: { 'if-none-match': field } }), tag);
    }
    for (const field of ['"nope"', `W/"nope", "other"`, tag.slice(1, -1), `${tag}garbage`, '']) {
      assertTagged(await call('/v1/pets', { headers: { 'if-none-match': field } }));
    }
  });

  test('getPet: the 304 keeps Deprecation, Sunset and the successor Link', async ({ call }) => {
    const pet = await createPet(call, '{"name":"Rex","categoryId":1}');
    const first = await call(`/v1/pets/${pet.id}`);
    const tag = assertTagged(first);
    const res = await call(`/v1/pets/${pet.id}`, { headers: { 'if-none-match': tag } });
    await assertNotModified(res, tag);
    for (const name of ['deprecation', 'sunset', 'link']) assert.is(res.headers.get(name), first.headers.get(name), name);
  });

  test('getPet at the sunset: 410 whatever tag the client holds, and no ETag', async ({ call, db }) => {
    const pet = await createPet(call, '{"name":"Rex","categoryId":1}');
    const tag = assertTagged(await call(`/v1/pets/${pet.id}`));
    await withStore(run, db, { now: () => new Date('2030-12-05T00:00:00Z') }, async (late) => {
      for (const field of [tag, '*']) {
        const res = await late(`/v1/pets/${pet.id}`, { headers: { 'if-none-match': field } });
        assert.is(res.headers.get('etag'), null);
        await expectError(res, 410, 'gone');
      }
    });
  });

  test('listOrders: ETag, 304, and a new order changes the tag', async ({ call, db }) => {
    const pet = await createPet(call, '{"name":"Rex","categoryId":1}');
    await addOrder(db, { petId: pet.id, quantity: 1 });
    const tag = assertTagged(await call('/v1/store/orders'));
    await assertNotModified(await call('/v1/store/orders', { headers: { 'if-none-match': tag } }), tag);
    await addOrder(db, { petId: pet.id, quantity: 2 });
    assert.is.not(assertTagged(await call('/v1/store/orders', { headers: { 'if-none-match': tag } })), tag);
  });

  test('HEAD: the same ETag as GET, and 304 on a match', async ({ call }) => {
    await createPet(call, '{"name":"Rex","categoryId":1}');
    const tag = assertTagged(await call('/v1/pets'));
    const head = await call('/v1/pets', { method: 'HEAD' });
    assert.is(assertTagged(head), tag);
    assert.is(await head.text(), '');
    await assertNotModified(await call('/v1/pets', { method: 'HEAD', headers: { 'if-none-match': tag } }), tag);
  });

  test('no ETag on POST, on errors, or without a key', async ({ call }) => {
    const created = await call('/v1/pets', { method: 'POST', body: '{"name":"Rex","categoryId":1}' });
    assert.is(created.status, 201);
    assert.is(created.headers.get('etag'), null);
    const bad = await call('/v1/pets?limit=0', { headers: { 'if-none-match': '*' } });
    assert.is(bad.headers.get('etag'), null);
    await expectError(bad, 400, 'invalid_request');
    const anonymous = await call('/v1/pets', { anonymous: true, headers: { 'if-none-match': '*' } });
    assert.is(anonymous.headers.get('etag'), null);
    await expectError(anonymous, 401, 'unauthorized');
  });

  test.run();
}
