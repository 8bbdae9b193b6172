import type pg from 'pg';

/**
 * The statement timeout of a pool of ours, through pg's documented client config `query_timeout`:
 * pg fails the query when no answer came in time. Nothing is sent to the server, so it holds
 * behind a transaction-mode pooler (which refuses a `statement_timeout` startup parameter). The
 * backend may still be working on the statement, so the client that timed out is destroyed when
 * it goes back to the pool (`release(error)`, see {@link mustDestroy}), never lent out again.
 */
export function timeoutConfig(timeoutMs: number): Pick<pg.PoolConfig, 'query_timeout'> {
  return timeoutMs > 0 ? { query_timeout: timeoutMs } : {};
}

/** pg's error for a query past `query_timeout`. */
const TIMEOUT_MESSAGE = 'Query read timeout';

/** Whether a query's error means its connection must not be lent again. */
export function mustDestroy(error: unknown): boolean {
  return error instanceof Error && error.message === TIMEOUT_MESSAGE;
}
