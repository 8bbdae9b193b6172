// Seeding checks data by the API's own rules (issue 24 item 7): what POST /pets or addOrder would
// refuse, seed refuses too, naming every offending field and the allowed values, and inserts nothing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../src/index.js';
import { type SeedData, type TestStore, createTestStore } from '../src/testing.js';

const test = suite('seed validation');
let t: TestStore;
test.before(async () => {
  t = await createTestStore();
});
test.after(() => t.close());

async function refused(data: SeedData): Promise<ApiError> {
  try {
    await t.seed(data);
  } catch (error) {
    assert.instance(error, ApiError);
    return error as ApiError;
  }
  throw new Error('seed accepted data the API refuses');
}

/** The 400 details POST /pets answers for `body`. */
async function apiDetails(body: unknown): Promise<{ path: string; message: string }[]> {
  const res = await t.fetch('/v1/pets', {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.is(res.status, 400);
  return ((await res.json()) as { details: { path: string; message: string }[] }).details;
}

test("a name '' and a bad status: refused with the field and the allowed values, as the API's 400 says", async () => {
  const error = await refused({
    pets: [
      { name: 'ok', categoryId: 1 },
      { name: '', categoryId: 1 },
      { name: 'Rex', categoryId: 1, status: 'lost' as never },
    ],
  });
  assert.is(error.status, 400);
  assert.is(error.code, 'invalid_request');
  const [emptyName] = await apiDetails({ name: '', categoryId: 1 });
  const [badStatus] = await apiDetails({ name: 'Rex', categoryId: 1, status: 'lost' });
  assert.equal(error.details, [
    { path: 'pets.1.name', message: emptyName!.message },
    { path: 'pets.2.status', message: badStatus!.message },
  ]);
  assert.match(error.message, 'pets.2.status must be one of available, pending, sold');
  assert.match(error.message, 'pets.1.name must be 1 to 255 characters');
  assert.is(await (await t.fetch('/v1/pets', { headers: { authorization: `Bearer ${t.key}` } })).text(), '[]', 'nothing inserted');
});

test('a blank name, orders as addOrder takes them: every offending field at once', async () => {
  const error = await refused({
    pets: [{ name: '   ', categoryId: 1 }],
    orders: [{ petId: 1, quantity: 0, status: 'shipped' as never }],
  });
  assert.equal(
    error.details?.map((d) => d.path),
    ['pets.0.name', 'orders.0.quantity', 'orders.0.status'],
  );
  assert.match(error.message, 'orders.0.status must be one of placed, approved, delivered');
});

test('valid data is still seeded', async () => {
  const { pets } = await t.seed({ pets: [{ name: 'Rex', categoryId: '7', status: 'sold' }] });
  assert.equal(pets, [{ id: 1n, name: 'Rex', categoryId: 7n, status: 'sold' }]);
});

test.run();
