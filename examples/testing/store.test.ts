// Testing your code against the store with node:test: every test gets its own fresh, migrated
// store, in-process on PGlite (no server, no PostgreSQL), and the tests run concurrently. The
// first store of a process takes a few seconds (initdb); each further one well under a millisecond
// when a closed store's schema is reused, a few milliseconds when a new schema is built.
// Run: node --import tsx --test examples/testing/store.test.ts
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPetStore } from 'petstore-router';
import { createTestDatabase, createTestStore } from 'petstore-router/testing';

void describe('pets', { concurrency: true }, () => {
  void test('a new pet is the first of a fresh store', async (t) => {
    const { fetch, key, close } = await createTestStore();
    t.after(close);
    const res = await fetch(
      new Request('http://test/v1/pets', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      }),
    );
    assert.equal(res.status, 201);
    assert.equal((await res.json()).id, 1);
  });

  void test('seeded rows, no HTTP needed: ids past 2^53 stay exact', async (t) => {
    const store = await createTestStore();
    t.after(store.close);
    const { pets } = await store.seed({ pets: [{ id: 2n ** 60n, name: 'Big', categoryId: 2 }] });
    const res = await store.fetch(new Request(`http://test/v1/pets/${pets[0]!.id}`, { headers: { authorization: `Bearer ${store.key}` } }));
    assert.match(await res.text(), /"id":1152921504606846976,/);
  });

  void test('each test has an empty store of its own (the pets above are not here)', async (t) => {
    // Or build the store yourself on a fresh database, with your own options.
    const db = await createTestDatabase();
    t.after(() => db.destroy());
    const store = createPetStore({ db, keys: ['my-key'], basePath: '/api' });
    const res = await store.fetch(new Request('http://test/api/pets', { headers: { authorization: 'Bearer my-key' } }));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), []);
  });
});
