// Testing your code against the store with uvu: a fresh store per test (before.each/after.each).
// uvu runs the tests of a suite one after another; the last test uses several stores at once.
// Run: node --import tsx examples/testing/uvu.test.ts (or: npx uvu -r tsx examples/testing)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type TestStore, createTestStore } from 'petstore-router/testing';

const pets = suite<{ store: TestStore }>('pets', {} as { store: TestStore });
pets.before.each(async (context) => {
  context.store = await createTestStore();
});
pets.after.each(async (context) => {
  await context.store.close();
});

const list = async (store: TestStore) =>
  (await store.fetch(new Request('http://test/v1/pets', { headers: { authorization: `Bearer ${store.key}` } }))).json();

pets('a fresh store has no pets', async ({ store }) => {
  assert.equal(await list(store), []);
});

pets('seeded pets are listed', async ({ store }) => {
  await store.seed({
    pets: [
      { name: 'Rex', categoryId: 1 },
      { name: 'Tom', categoryId: 2, status: 'sold' },
    ],
  });
  assert.equal(
    (await list(store)).map((p: { name: string }) => p.name),
    ['Rex', 'Tom'],
  );
});

pets('ten stores used at once see only their own pets', async () => {
  const stores = await Promise.all(Array.from({ length: 10 }, () => createTestStore()));
  try {
    await Promise.all(stores.map((s, i) => s.seed({ pets: [{ name: `pet ${i}`, categoryId: i }] })));
    for (const [i, s] of stores.entries())
      assert.equal(
        (await list(s)).map((p: { name: string }) => p.name),
        [`pet ${i}`],
      );
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
});

pets.run();
