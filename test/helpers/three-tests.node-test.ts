// A node:test file of three tests, each with a test store closed by `t.after` (run by
// test/clean-exit.test.ts, which checks the process exits at once after the last close()).
// Each close prints `closed <epoch ms>` on stderr.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestStore } from 'petstore-router/testing';

for (const name of ['first', 'second', 'third']) {
  void test(`${name} store`, async (t) => {
    const store = await createTestStore();
    const { fetch, key } = store;
    t.after(async () => {
      await store.close();
      process.stderr.write(`closed ${Date.now()}\n`);
    });
    const res = await fetch(
      new Request('http://test/v1/pets', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, categoryId: 1 }),
      }),
    );
    assert.equal(res.status, 201);
  });
}
