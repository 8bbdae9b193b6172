import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../src/index.js';
import { createPGliteDatabase } from '../src/pglite.js';
import { KEY } from './helpers/harness.js';

// An onError that throws must not cost the client its answer: the 503 still has the Error body.
test('an onError that throws: the client still gets the 503 Error body with its request id', async () => {
  const db = await createPGliteDatabase();
  await db.destroy(); // every query now fails: the database is closed, a 503
  const seen: string[] = [];
  const store = createPetStore({
    db,
    keys: [KEY],
    onError: (_error, _request, { requestId }) => {
      seen.push(requestId);
      throw new Error('the logger is down');
    },
  });
  const res = await store.fetch(new Request('http://x/v1/pets', { headers: { authorization: `Bearer ${KEY}`, 'x-request-id': 'r-1' } }));
  assert.is(res.status, 503);
  assert.equal(await res.json(), {
    code: 'database_closed',
    message: "this store's database has been closed (db.destroy() or the test store's close()): create a new store",
    status: 503,
  });
  assert.is(res.headers.get('x-request-id'), 'r-1');
  assert.equal(seen, ['r-1']);
});

test.run();
