import { sql } from 'kysely';
import { defineStatement, type Executor } from './statement.js';
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
export async function countRequest(on: Executor, keyId: string, windowStart: number): Promise<WindowCount> {
  const rows = await countRequestStatement.run(on, keyId, String(windowStart));
  // Numbers whatever the row mode: a caller's own pg.Pool or Kysely answers object rows, with
  // `windowStart` as the text the statement selects.
  const { hits, windowStart: start } = rows[0]!;
  return { hits: Number(hits), windowStart: Number(start) };
}

/**
 * The upsert, one of the store's own statements (compiled once per Kysely, so a `schema` option
 * qualifies its table like every other statement's). `excluded` is PostgreSQL's name for the
 * proposed row, the table's own name the existing one.
 */
const countRequestStatement = defineStatement<[keyId: string, windowStart: string], WindowCount>(
  'count a request of a key in its window',
  2,
  (d, keyId, windowStart) =>
    d
      .insertInto('petstore_rate_limits')
      .values({ key_id: keyId, window_start: windowStart, hits: 1 })
      .onConflict((conflict) =>
        conflict.column('key_id').doUpdateSet({
          hits: sql`case when ${sql.ref('excluded.window_start')} > ${sql.ref('petstore_rate_limits.window_start')} then 1 else ${sql.ref('petstore_rate_limits.hits')} + 1 end`,
          window_start: sql`greatest(${sql.ref('petstore_rate_limits.window_start')}, ${sql.ref('excluded.window_start')})`,
        }),
      )
      .returning([
        sql<number>`${sql.ref('petstore_rate_limits.hits')}`.as('hits'),
        sql<string>`${sql.ref('petstore_rate_limits.window_start')}::text`.as('windowStart'),
      ]),
  (row) => ({ hits: Number(row[0]), windowStart: Number(row[1]) }),
);
