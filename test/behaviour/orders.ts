import * as assert from 'uvu/assert';
import { ApiError, addOrder } from '../../src/index.js';
import { type BehaviourRun, area, body, createPet, expectInvalid, nextLinkOf } from './context.js';

/** Decisions "Order resource" and "GET /store/orders": written through the library, listed over HTTP. */
export function ordersBehaviour(run: BehaviourRun): void {
  const test = area(run, 'GET /store/orders');

  test('an empty store: 200 []', async ({ call }) => {
    const res = await call('/v1/store/orders');
    assert.is(res.status, 200);
    assert.equal(await body(res), []);
  });

  test('orders added through addOrder are listed with every field', async ({ call, db }) => {
    const pet = await createPet(call, '{"name":"Rex","categoryId":1}');
    const shipDate = new Date('2026-12-24T10:00:00.000Z');
    const a = await addOrder(db, { petId: pet.id, quantity: 2, shipDate, status: 'approved', complete: true });
    const b = await addOrder(db, { petId: pet.id, quantity: 1 });
    assert.equal(a, { id: a.id, petId: pet.id, quantity: 2, shipDate, status: 'approved', complete: true });
    assert.equal(b, { id: b.id, petId: pet.id, quantity: 1, status: 'placed', complete: false });
    const listed = await body(await call('/v1/store/orders'));
    assert.equal(listed, [
      { id: a.id, petId: pet.id, quantity: 2n, shipDate: '2026-12-24T10:00:00.000Z', status: 'approved', complete: true },
      { id: b.id, petId: pet.id, quantity: 1n, status: 'placed', complete: false },
    ]);
  });

  test('limit and cursor pagination as for pets', async ({ call, db }) => {
    const pet = await createPet(call, '{"name":"Rex","categoryId":1}');
    for (let i = 1; i <= 5; i++) await addOrder(db, { petId: pet.id, quantity: i });
    const first = await call('/v1/store/orders?limit=2');
    assert.equal(
      (await body(first)).map((o: { quantity: bigint }) => Number(o.quantity)),
      [1, 2],
    );
    const next = nextLinkOf(first)!;
    assert.is(new URL(next, 'http://x').searchParams.get('limit'), '2');
    const second = await call(next);
    assert.equal(
      (await body(second)).map((o: { quantity: bigint }) => Number(o.quantity)),
      [3, 4],
    );
    const third = await call(nextLinkOf(second)!);
    assert.equal(
      (await body(third)).map((o: { quantity: bigint }) => Number(o.quantity)),
      [5],
    );
    assert.is(third.headers.get('link'), null);
    assert.is((await body(await call('/v1/store/orders'))).length, 5);
  });

  test('invalid limit or cursor: 400; a pets cursor is not an orders cursor', async ({ call, db }) => {
    await expectInvalid(await call('/v1/store/orders?limit=0'), ['limit']);
    await expectInvalid(await call('/v1/store/orders?limit=1&limit=1'), ['limit']);
    await expectInvalid(await call('/v1/store/orders?cursor=zz'), ['cursor']);
    for (let i = 0; i < 2; i++) await createPet(call, '{"name":"n","categoryId":1}');
    const petsNext = nextLinkOf(await call('/v1/pets?limit=1'))!;
    const cursor = new URL(petsNext, 'http://x').searchParams.get('cursor')!;
    await expectInvalid(await call(`/v1/store/orders?cursor=${cursor}`), ['cursor']);
    assert.ok(db);
  });

  test('addOrder validates like a request body and refuses an unknown pet', async ({ call, db }) => {
    const pet = await createPet(call, '{"name":"Rex","categoryId":1}');
    try {
      await addOrder(db, { petId: pet.id, quantity: 0, status: 'lost' as never });
      assert.unreachable('should throw');
    } catch (e) {
      assert.instance(e, ApiError);
      assert.is((e as ApiError).status, 400);
      assert.equal((e as ApiError).details!.map((d) => d.path).sort(), ['quantity', 'status']);
    }
    try {
      await addOrder(db, { petId: 999999n, quantity: 1 });
      assert.unreachable('should throw');
    } catch (e) {
      assert.instance(e, ApiError);
      assert.is((e as ApiError).status, 404);
    }
  });

  test.run();
}
