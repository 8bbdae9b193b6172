// A database's own partition bound (the contract's `maxWaitMs`, createPostgresDatabase's option)
// also bounds a create's wait for a batch (src/storage/pet-inserts.ts): with every round stuck, a
// create is refused after the database's bound, not the default 5 s, and nothing of it is sent.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../src/index.js';
import { classifyDatabaseError } from '../src/drivers/classify.js';
import type { PetStoreDatabase, PreparedStatement, StatementRunner } from '../src/drivers/contract.js';
import type { Database } from '../src/storage/database.js';
import { createTestDatabase } from '../src/testing.js';

const KEY = 'wait-bound-key';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A runner whose writes hang until `release()` (a row lock that never goes); other statements are Kysely's. */
function stuckWrites(): StatementRunner & { writes: number; release(): void } {
  const waiting: (() => void)[] = [];
  return {
    writes: 0,
    run<R>(statement: PreparedStatement): Promise<R> {
      if (statement.write !== true) return Promise.reject(new Error('only writes are sent through this runner'));
      this.writes++;
      return new Promise<R>((_, reject) => waiting.push(() => reject(new Error('released'))));
    },
    release() {
      for (const fail of waiting.splice(0)) fail();
    },
  };
}

for (const maxWaitMs of [300, undefined]) {
  test(`a create waiting for a batch is refused after ${maxWaitMs ?? 'the default'} ms of the database's bound, never sent`, async () => {
    const kysely = await createTestDatabase();
    const runner = stuckWrites();
    const db: PetStoreDatabase<Database> = {
      kysely,
      statements: runner,
      reads: undefined,
      classify: classifyDatabaseError,
      close: () => kysely.destroy(),
      ...(maxWaitMs === undefined ? {} : { maxWaitMs }),
    };
    const errors: unknown[] = [];
    const store = createPetStore({ db, keys: [KEY], onError: (error) => errors.push(error) });
    const create = (name: string) =>
      store.fetch(
        new Request('http://store.test/v1/pets', {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name, categoryId: 1 }),
        }),
      );
    try {
      // Four rounds, each set aside as slow after 100 ms: every round the process may run is stuck.
      const stuck = [];
      for (let i = 0; i < 4; i++) {
        stuck.push(create(`stuck ${i}`));
        await sleep(150);
      }
      assert.is(runner.writes, 4, 'four rounds sent, one create each');
      const refused = await create('waits');
      assert.is(refused.status, 503);
      const body = (await refused.json()) as { code: string; message: string };
      assert.match(body.message, /nothing was stored/);
      assert.is(runner.writes, 4, 'the refused create was never sent');
      const said = errors.map(String).join('\n');
      assert.match(said, `a create waited ${maxWaitMs ?? 5_000} ms for the database; not sent`);
      runner.release();
      await Promise.all(stuck);
    } finally {
      runner.release();
      await kysely.destroy();
    }
  });
}

test.run();
