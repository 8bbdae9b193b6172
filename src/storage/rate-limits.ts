import { type Kysely, sql } from 'kysely';
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
  const row = await db
    .insertInto('petstore_rate_limits')
    .values({ key_id: keyId, window_start: String(windowStart), hits: 1 })
    .onConflict((oc) =>
      oc.column('key_id').doUpdateSet({
        hits: sql<number>`case when excluded.window_start > petstore_rate_limits.window_start then 1 else petstore_rate_limits.hits + 1 end`,
        window_start: sql<string>`greatest(petstore_rate_limits.window_start, excluded.window_start)`,
      }),
    )
    .returning(['hits', 'window_start'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), windowStart: Number(row.window_start) };
}
