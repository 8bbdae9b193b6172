// The exported wire types are what a client receives (issue 24 item 8): `Pet` and `Order` have
// `number` ids, as `await res.json()` gives them, and each property the API writes; the
// store-side types (`StoredPet`, `StoredOrder`) keep int64 as bigint. The type-level checks
// below fail `npm run typecheck` when a type drifts; the runtime checks compare with real bodies.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type NewPet, type Order, type Pet, type StoredOrder, type StoredPet, addOrder } from 'petstore-router';
import { createTestStore } from 'petstore-router/testing';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const wirePetId: Equal<Pet['id'], number> = true;
const wireCategoryId: Equal<Pet['categoryId'], number> = true;
const wireOrderId: Equal<Order['id'], number> = true;
const wireOrderPetId: Equal<Order['petId'], number> = true;
const wireShipDate: Equal<Order['shipDate'], string | undefined> = true;
const newPetCategory: Equal<NewPet['categoryId'], number> = true;
const storedPetId: Equal<StoredPet['id'], bigint> = true;
const storedOrderIds: Equal<[StoredOrder['id'], StoredOrder['petId']], [bigint, bigint]> = true;
void [wirePetId, wireCategoryId, wireOrderId, wireOrderPetId, wireShipDate, newPetCategory, storedPetId, storedOrderIds];

/** The JavaScript type of each property, as a body was received. */
const shape = (body: object) => Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v]));

const test = suite('wire types');

test('Pet and Order are what `await res.json()` gives: number ids; seed and addOrder give bigint', async () => {
  const t = await createTestStore();
  try {
    const newPet: NewPet = { name: 'Rex', categoryId: 3 };
    const created = await t.fetch('/v1/pets', {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(newPet),
    });
    const pet = (await created.json()) as Pet;
    const samplePet: Pet = { id: 1, name: 'Rex', categoryId: 3, status: 'available' };
    assert.equal(pet, samplePet);
    assert.equal(shape(pet), shape(samplePet));

    const stored: StoredOrder = await addOrder(t.db, { petId: 1n, quantity: 2, shipDate: new Date('2026-01-02T00:00:00Z') });
    assert.is(typeof stored.id, 'bigint');
    const [order] = (await (await t.fetch('/v1/store/orders', { headers: { authorization: `Bearer ${t.key}` } })).json()) as Order[];
    const sampleOrder: Order = { id: 1, petId: 1, quantity: 2, shipDate: '2026-01-02T00:00:00.000Z', status: 'placed', complete: false };
    assert.equal(order, sampleOrder);
    assert.equal(shape(order!), shape(sampleOrder));

    const { pets } = await t.seed({ pets: [{ name: 'Big', categoryId: 1 }] });
    const seeded: StoredPet = pets[0]!;
    assert.is(typeof seeded.id, 'bigint');
  } finally {
    await t.close();
  }
});

test.run();
