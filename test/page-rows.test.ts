// A page statement reads limit + 1 rows rounded up to a constant (storage/pets.ts, pageRows), so
// a page must still hold exactly `limit` pets and say whether more follow, for every limit and
// every shape, and walking the pages must visit each pet once.
import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listPets } from '../src/storage/pets.js';
import { resetDatabase, sharedPGlite } from './helpers/db.js';

const PETS = 102; // every third one available: 34

async function seeded() {
  const db = await sharedPGlite();
  await resetDatabase(db);
  await sql`insert into petstore_pets (name, category_id, status)
    select 'p' || g, 1, (array['available', 'pending', 'sold'])[g % 3 + 1] from generate_series(1, ${PETS}::int) g`.execute(db);
  return db;
}

test('every limit from 1 to 100: pages of exactly `limit`, hasMore right, each pet once, in id order', async () => {
  const db = await seeded();
  for (const status of [undefined, 'available'] as const) {
    const total = status === undefined ? PETS : PETS / 3;
    for (let limit = 1; limit <= 100; limit++) {
      const seen: string[] = [];
      let afterId: bigint | undefined;
      for (;;) {
        const page = await listPets({ kysely: db }, { limit, status, afterId });
        const left = total - seen.length;
        assert.is(page.items.length, Math.min(limit, left), `limit ${limit}, status ${status}, after ${afterId}`);
        assert.is(page.hasMore, left > limit, `hasMore, limit ${limit}, status ${status}, after ${afterId}`);
        seen.push(...page.items.map((p) => p.id));
        if (!page.hasMore) break;
        afterId = BigInt(page.items.at(-1)!.id);
      }
      assert.is(seen.length, total);
      assert.equal(
        seen,
        [...seen].sort((a, b) => Number(a) - Number(b)),
        'ascending ids, no repeats',
      );
      assert.is(new Set(seen).size, total);
    }
  }
});

test.run();
