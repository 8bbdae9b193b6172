import type pg from 'pg';

/**
 * The partition bound of pools created here: the longest a request waits on PostgreSQL in any one
 * phase (opening a connection, waiting for a pooled one, one statement), so a database that stops
 * answering without closing its connections (a network partition) costs a bounded wait and a 503,
 * never a request that hangs until TCP gives up.
 */
export const DEFAULT_MAX_WAIT_MS = 5_000;

/** The statement timeout (a cancel on the server) of a pool whose config does not set one: 10 s, or less to end inside the bound. */
const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

/** pg's error for a statement past its documented `query_timeout`. */
const QUERY_TIMEOUT_MESSAGE = 'Query read timeout';

/**
 * `config` bounded by `maxWaitMs` through pg's documented options, unless it sets them itself:
 * `connectionTimeoutMillis` (pg-pool applies it to connecting and to waiting in its queue) and
 * `query_timeout` (pg fails the statement's callback at once, without waiting for the socket).
 */
export function boundedPoolConfig(config: pg.PoolConfig, maxWaitMs: number): pg.PoolConfig {
  return {
    ...config,
    connectionTimeoutMillis: config.connectionTimeoutMillis ?? maxWaitMs,
    query_timeout: config.query_timeout ?? maxWaitMs,
  };
}

/**
 * The statement timeout when the config gives none: cancelled on the server a second before the
 * bound drops the connection (so a merely slow statement stops on the server too), at most 10 s.
 */
export function defaultStatementTimeoutMs(maxWaitMs: number): number {
  return Math.min(DEFAULT_STATEMENT_TIMEOUT_MS, Math.max(maxWaitMs - 1_000, Math.ceil(maxWaitMs / 2)));
}

/** Checks `maxWaitMs` at creation: a wrong value names the option and what to pass. */
export function checkMaxWait(maxWaitMs: unknown): number {
  if (maxWaitMs === undefined) return DEFAULT_MAX_WAIT_MS;
  if (typeof maxWaitMs !== 'number' || !Number.isInteger(maxWaitMs) || maxWaitMs < 1) {
    throw new TypeError(`petstore-router: maxWaitMs must be a positive whole number of milliseconds, got ${JSON.stringify(maxWaitMs)}`);
  }
  return maxWaitMs;
}

/**
 * True for a statement that went past the bound: its connection is stuck (nothing came back in
 * time) and must never be lent again: it is released with the error, which makes pg-pool destroy it.
 */
export function isWaitExceeded(error: unknown): error is Error {
  return error instanceof Error && error.message === QUERY_TIMEOUT_MESSAGE;
}
