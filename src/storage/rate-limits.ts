import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './database.js';

/** The count of one key in the window a request was counted in. */
export interface WindowCount {
  /** Requests counted in the window, this one included. */
  hits: number;
  /** Start of that window, in seconds since the epoch. */
  windowStart: number;
}

/**
 * Counts one request of `keyId` in the fixed window starting at `windowStart` (seconds since the
 * epoch) and returns the count after it: one statement, one round trip. The upsert takes the
 * key's row lock, so concurrent requests from any number of processes are counted exactly once
 * each and see distinct counts. A later window resets the count to 1; a request stamped with an
 * earlier window than the row's (a process whose clock lags) is counted in the row's window
 * rather than moving it back.
 */
export async function countRequest(db: Kysely<Database>, keyId: string, windowStart: number): Promise<WindowCount> {
  const { rows } = await db.executeQuery<{ hits: number | string; window_start: number | string | bigint }>(
    CompiledQuery.raw(COUNT_REQUEST, [keyId, String(windowStart)]),
  );
  const row = rows[0]!;
  return { hits: Number(row.hits), windowStart: Number(row.window_start) };
}

/**
 * The statement, written once as text: it runs on every counted request, and building it with
 * the query builder each time cost more client CPU than the rest of the limiter.
 */
const COUNT_REQUEST = `insert into petstore_rate_limits as t (key_id, window_start, hits) values ($1, $2, 1)
on conflict (key_id) do update set
  hits = case when excluded.window_start > t.window_start then 1 else t.hits + 1 end,
  window_start = greatest(t.window_start, excluded.window_start)
returning hits, window_start`;
