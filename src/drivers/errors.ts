/**
 * Recognises errors that mean "the database cannot be reached right now" (as opposed to a bug or
 * a bad query), for both drivers, so they become 503 + Retry-After rather than 500. Once the
 * database is back, pg's Pool opens new connections by itself: no restart needed.
 */

// SQLSTATE classes: 08 connection exception, 57P01-57P03 shutdown / cannot connect now,
// 53300 too many connections, 57014 statement timeout; the pg driver's statement timeout
// ("statement timeout: ...", drivers/pg/timeout.ts) and pg's `query_timeout` ("Query read timeout"):
// a slow database, answered as busy.
const UNAVAILABLE_SQLSTATE = /^(?:08...|57P0[123]|53300|57014)$/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|Query read timeout|^statement timeout: |timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed|PGlite is closed|PGlite instance is already closed|Cannot use a pool after calling end|driver has already been destroyed/i;

/** True when `error` (or its cause chain) says the database is unreachable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

// The waits that end in an error only once their bound has passed: a statement past the statement
// timeout (57014, ours, pg's `query_timeout`) and a connection not lent or opened in time (pg-pool).
const TIMEOUT_MESSAGE = /^statement timeout: |Query read timeout|timeout exceeded when trying to connect/;

/**
 * True when `error` (or its cause chain) says a wait on the database ran to its bound: the
 * statement timed out, or no connection came in time. Unlike a refused or reset connection, such
 * an error comes only after the whole bound has passed.
 */
export function isDatabaseTimeout(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === '57014' || (typeof message === 'string' && TIMEOUT_MESSAGE.test(message))) return true;
  }
  return false;
}
