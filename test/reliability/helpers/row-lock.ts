import pg from 'pg';
import { sleep } from './load.js';

/**
 * From `lockAt` (Date.now() time), holds for `seconds` the row of an id 300 past the last one
 * drawn, in a session of its own (begin; insert that id; sleep; rollback): the create that draws
 * it, in whatever round, waits on the lock. Resolves with the id once the lock is gone.
 */
export async function holdNextRound(url: string, lockAt: number, seconds: number): Promise<{ id: string }> {
  const holder = new pg.Client(url);
  await holder.connect();
  try {
    await sleep(lockAt - Date.now());
    await holder.query('begin');
    const { rows } = await holder.query<{ id: string }>(
      `select (pg_sequence_last_value(pg_get_serial_sequence('petstore_pets', 'id')::regclass) + 300)::text as id`,
    );
    await holder.query(`insert into petstore_pets (id, name, category_id) values ($1, 'lock holder', 0)`, [rows[0]!.id]);
    await holder.query(`select pg_sleep(${seconds})`);
    await holder.query('rollback');
    return rows[0]!;
  } finally {
    await holder.end();
  }
}

/** Names stored more than once (a create retried after its 503 must never be stored twice). */
export async function namesStoredTwice(url: string): Promise<{ name: string; n: string }[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; n: string }>(
      `select name, count(*)::text as n from petstore_pets group by name having count(*) > 1 limit 5`,
    );
    return rows;
  } finally {
    await client.end();
  }
}
