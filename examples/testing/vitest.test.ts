// Testing your code against the store with Vitest: a fresh store per test, tests run
// concurrently (test.concurrent) in one worker, each store isolated from the others.
// Run: npx vitest run examples/testing/vitest.test.ts (after npm run build: Vitest resolves
// petstore-router/testing to the built package, as in your project).
import { type TestContext, beforeAll, test } from 'vitest';
import { createTestStore } from 'petstore-router/testing';

// The first store of a worker starts the shared in-memory PostgreSQL (initdb, seconds): pay it
// once here rather than inside the 5 s timeout of a test. Every later store takes milliseconds.
beforeAll(async () => (await createTestStore()).close(), 60_000);

/** A fresh store for this test, closed when it ends (a concurrent test uses its own context). */
async function freshStore({ onTestFinished }: TestContext) {
  const store = await createTestStore();
  onTestFinished(() => store.close());
  const auth = { authorization: `Bearer ${store.key}` };
  return {
    ...store,
    list: async () => (await store.fetch(new Request('http://test/v1/pets', { headers: auth }))).json(),
    add: (name: string) =>
      store.fetch(
        new Request('http://test/v1/pets', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name, categoryId: 1 }),
        }),
      ),
  };
}

for (const name of ['Rex', 'Tom', 'Kitty', 'Bo']) {
  test.concurrent(`only ${name} in this store`, async (context) => {
    const { expect } = context;
    const store = await freshStore(context);
    expect((await store.add(name)).status).toBe(201);
    expect(await store.list()).toEqual([{ id: 1, name, categoryId: 1, status: 'available' }]);
  });
}

test.concurrent('seeded pets and orders, without HTTP', async (context) => {
  const { expect } = context;
  const store = await freshStore(context);
  const { pets, orders } = await store.seed({ pets: [{ name: 'Rex', categoryId: 7 }], orders: [{ petId: 1, quantity: 2 }] });
  expect(pets[0]!.id).toBe(1n);
  expect(orders[0]).toMatchObject({ petId: 1n, quantity: 2, status: 'placed' });
  expect(await store.list()).toHaveLength(1);
});
