import type pg from 'pg';

/**
 * The partition bound of pools created here: the longest a request waits on PostgreSQL in any one
 * phase (opening a connection, waiting for a pooled one, one statement), so a database that stops
 * answering without closing its connections (a network partition) costs a bounded wait and a 503,
 * never a request that hangs until TCP gives up. Statements are bounded by the statement timeout
 * (timeout.ts), which defaults to this bound.
 */
export const DEFAULT_MAX_WAIT_MS = 5_000;

/**
 * The connect and acquire part of the bound: pg-pool's documented `connectionTimeoutMillis`, which
 * it applies to opening a connection and to waiting in its queue for one.
 */
export function boundConfig(maxWaitMs: number): Pick<pg.PoolConfig, 'connectionTimeoutMillis'> {
  return { connectionTimeoutMillis: maxWaitMs };
}
