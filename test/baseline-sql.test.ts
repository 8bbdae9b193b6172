// The benchmark's baselines (test/bench/baselines) must send PostgreSQL exactly the statements our
// repository compiles, so the database does the same work for every server: compared here by
// recording what Kysely hands the pg driver.
import { Kysely, PostgresDialect } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Database } from '../src/storage/database.js';
import { findPet, insertPet, listPets } from '../src/storage/pets.js';
import { SQL } from './bench/baselines/common.js';

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
  await listPets(db, { limit: 20 });
  await listPets(db, { limit: 20, afterId: 5n });
  await listPets(db, { limit: 20, status: 'sold' });
  await listPets(db, { limit: 20, status: 'sold', afterId: 5n });
  await findPet(db, 1n);
  await insertPet(db, { name: 'a', categoryId: 1n });
  assert.equal(sent, [SQL.list, SQL.listAfter, SQL.filter, SQL.filterAfter, SQL.get, SQL.insert]);
});

test.run();
