/**
 * Recognises errors that mean "the database cannot be reached right now" (as opposed to a bug or
 * a bad query), for both drivers, so they become 503 + Retry-After rather than 500. Once the
 * database is back, pg's Pool opens new connections by itself: no restart needed.
 */

// A wait on the database that ran to its bound (a slow database, answered as busy): 57014
// statement timeout; the pg driver's statement timeout ("statement timeout: ...",
// drivers/pg/timeout.ts), pg's `query_timeout` ("Query read timeout") and pg-pool's wait for a
// connection. Every timeout is also "unavailable".
const TIMEOUT_SQLSTATE = '57014';
const TIMEOUT_MESSAGE = /^statement timeout: |Query read timeout|timeout exceeded when trying to connect/i;
// SQLSTATE classes: 08 connection exception, 57P01-57P03 shutdown / cannot connect now,
// 53300 too many connections; errno codes and the drivers' words for a lost or closed connection.
const UNAVAILABLE_SQLSTATE = /^(?:08...|57P0[123]|53300)$/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|Client has encountered a connection error|connection is closed|PGlite is closed|PGlite instance is already closed|Cannot use a pool after calling end|driver has already been destroyed/i;

interface ErrorLike {
  code?: unknown;
  message?: unknown;
}

/** Whether `test` holds for `error` or an error of its `cause` chain (at most 5 deep). */
function inCauseChain(error: unknown, test: (e: ErrorLike) => boolean): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (test(e)) return true;
  }
  return false;
}

const isTimeout = ({ code, message }: ErrorLike): boolean =>
  code === TIMEOUT_SQLSTATE || (typeof message === 'string' && TIMEOUT_MESSAGE.test(message));

const isUnavailable = (e: ErrorLike): boolean => {
  const { code, message } = e;
  if (isTimeout(e)) return true;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  return e instanceof AggregateError && e.errors.some(isDatabaseUnavailable);
};

/** True when `error` (or its cause chain) says the database is unreachable (or timed out). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return inCauseChain(error, isUnavailable);
}

/**
 * True when `error` (or its cause chain) says a wait on the database ran to its bound: the
 * statement timed out, or no connection came in time. Unlike a refused or reset connection, such
 * an error comes only after the whole bound has passed.
 */
export function isDatabaseTimeout(error: unknown): boolean {
  return inCauseChain(error, isTimeout);
}
