// The benchmark's baselines (test/bench/baselines) must send PostgreSQL exactly the statements our
// repository compiles, so PostgreSQL runs the same statements for every server (how each server
// sends them, named or unnamed, is in docs/performance.md): compared here by
// recording what Kysely hands the pg driver.
import { Kysely, PostgresDialect } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Database } from '../src/storage/database.js';
import { pageRows as repositoryPageRows } from '../src/storage/page-rows.js';
import { findPet, insertPet, listPets } from '../src/storage/pets.js';
import { SQL, pageRows } from './bench/baselines/common.js';

function recordingDatabase(): { db: Kysely<Database>; sent: string[] } {
  const sent: string[] = [];
  const client = {
    query: async (text: string) => {
      sent.push(text);
      return { command: 'SELECT', rows: [{ id: '1', name: 'a', categoryId: '1', status: 'available' }] };
    },
    release() {},
  };
  const pool = { connect: async () => client, end: async () => {} };
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool as never }) }), sent };
}

test('the baselines send the SQL text our pet repository compiles, character for character', async () => {
  const { db, sent } = recordingDatabase();
  const expected: string[] = [];
  for (const limit of [1, 10, 11, 20, 21, 50, 51, 99, 100]) {
    const rows = pageRows(limit);
    await listPets({ kysely: db }, { limit });
    await listPets({ kysely: db }, { limit, afterId: 5n });
    await listPets({ kysely: db }, { limit, status: 'sold' });
    await listPets({ kysely: db }, { limit, status: 'sold', afterId: 5n });
    expected.push(SQL.list(rows), SQL.listAfter(rows), SQL.filter(rows), SQL.filterAfter(rows));
  }
  await findPet({ kysely: db }, 1n);
  await insertPet({ kysely: db }, { name: 'a', categoryId: 1n });
  assert.equal(sent, [...expected, SQL.get, SQL.insert]);
});

test('a page reads limit + 1 rows rounded up to 11, 21, 51 or 101 (the baselines use the same rule)', () => {
  const reads = (limit: number) => [repositoryPageRows(limit), pageRows(limit)];
  assert.equal(reads(1), [11, 11]);
  assert.equal(reads(10), [11, 11]);
  assert.equal(reads(11), [21, 21]);
  assert.equal(reads(20), [21, 21]);
  assert.equal(reads(30), [51, 51]);
  assert.equal(reads(50), [51, 51]);
  assert.equal(reads(51), [101, 101]);
  assert.equal(reads(100), [101, 101]);
});

test.run();
