// The one classifier of database errors: every SQLSTATE and errno the package acts on is written
// here and nowhere else in src/. PostgreSQL and PGlite report the same SQLSTATEs; pg, pg-pool,
// Kysely and PGlite each name a closed or lost connection in their own words.
import type { DatabaseErrorKind, DatabaseFailure } from './contract.js';

const failure = (kind: DatabaseErrorKind, stored: DatabaseFailure['stored']): DatabaseFailure => Object.freeze({ kind, stored });
const UNAVAILABLE = failure('unavailable', 'no');
const LOGIN_REFUSED = failure('login_refused', 'no');
const TIMEOUT_NOTHING_STORED = failure('timeout', 'no');
const TIMEOUT_MAYBE_STORED = failure('timeout', 'maybe');
const OUTCOME_UNKNOWN = failure('outcome_unknown', 'maybe');
const NOT_PRIMARY = failure('not_primary', 'no');
const NOT_MIGRATED = failure('not_migrated', 'no');
const CLOSED = failure('closed', 'no');

// SQLSTATEs (PostgreSQL, appendix A).
/** sqlclient_unable_to_establish_sqlconnection: what our driver's own "could not connect" errors carry, as libpq's do. */
export const UNABLE_TO_CONNECT = '08001';
const QUERY_CANCELED = '57014'; // statement_timeout, or a cancel: the server ended the statement
const READ_ONLY_SQL_TRANSACTION = '25006'; // a write sent to a standby (or a primary demoted to one)
const UNDEFINED_TABLE = '42P01';
const INVALID_SCHEMA_NAME = '3F000';
const FOREIGN_KEY_VIOLATION = '23503';
// A named statement missing on (26000), or already defined on (42P05), the backend a pooler lent.
const STATEMENT_NAME_CONFLICT = new Set(['26000', '42P05']);
// 08 connection exception, 57P01-57P03 and 57P05 shut down / cannot connect now / idle session
// timeout, 53300 too many connections: the work was refused, not done.
const UNAVAILABLE_SQLSTATE = /^(?:08...|57P0[1235]|53300)$/;
// 28: invalid authorization (28P01 a wrong password, 28000 no such role or no pg_hba.conf entry).
const LOGIN_REFUSED_SQLSTATE = /^28...$/;
// SQLSTATE classes of a server that did not do the work (connection, operator intervention,
// insufficient resources): anything else it answers is an ordinary SQL error.
const NOT_ANSWERED_CLASS = /^(?:08|28|57P|53)/;

// errnos: refused or never reached (nothing sent), or lost while a statement may have been out.
const UNREACHED_ERRNO = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const LOST_ERRNO = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

// The drivers' words. A timeout after the statement was sent (ours, drivers/pg/timeout.ts; pg's
// `query_timeout`) may have committed; pg-pool's and pg's connect timeouts sent nothing.
const SENT_TIMEOUT_MESSAGE = /^statement timeout: |^Query read timeout$/;
const CONNECT_TIMEOUT_MESSAGE = /timeout exceeded when trying to connect|Connection terminated due to connection timeout/i;
const LOST_MESSAGE = /Connection terminated/i;
const UNREACHED_MESSAGE = /Client has encountered a connection error|connection is closed/i;
const CLOSED_MESSAGE =
  /driver has already been destroyed|PGlite is closed|PGlite instance is already closed|Cannot use a pool after calling end/i;
// The relation as PostgreSQL names it, schema-qualified or not: `relation "s.petstore_pets"`.
const OUR_RELATION = /relation "(?:[^"]*\.)?petstore_[a-z_]*" does not exist/;

/**
 * A wait of the store's own that ran past its bound before anything was sent (a create that waited
 * too long for a batch, storage/pet-inserts.ts): the database never saw it, so nothing is stored.
 */
export class NotSentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotSentError';
  }
}

/**
 * A create that waited for a batch and then for its statement past its whole bound (its wait, the
 * server's bound and the grace for its answer): sent, unanswered, so it may or may not be stored.
 */
export class UnansweredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnansweredError';
  }
}

/** What an error of the store's own means (not sent: nothing stored; unanswered: maybe), for any database's classifier. */
export function storeFailure(error: unknown): DatabaseFailure | undefined {
  if (error instanceof NotSentError) return TIMEOUT_NOTHING_STORED;
  return error instanceof UnansweredError ? TIMEOUT_MAYBE_STORED : undefined;
}

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  severity?: unknown;
  cause?: unknown;
}

/** The kind of `error` itself (not its cause chain), or undefined. */
function kindOf(e: ErrorLike): DatabaseFailure | undefined {
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : '';
  if (e instanceof NotSentError || e instanceof UnansweredError) return storeFailure(e);
  if (CLOSED_MESSAGE.test(message)) return CLOSED;
  if ((code === UNDEFINED_TABLE && OUR_RELATION.test(message)) || code === INVALID_SCHEMA_NAME) return NOT_MIGRATED;
  if (code === READ_ONLY_SQL_TRANSACTION) return NOT_PRIMARY;
  if (code === QUERY_CANCELED) return TIMEOUT_NOTHING_STORED;
  if (SENT_TIMEOUT_MESSAGE.test(message)) return TIMEOUT_MAYBE_STORED;
  if (CONNECT_TIMEOUT_MESSAGE.test(message)) return TIMEOUT_NOTHING_STORED;
  if (code !== undefined && (UNAVAILABLE_SQLSTATE.test(code) || UNREACHED_ERRNO.has(code))) return UNAVAILABLE;
  if (code !== undefined && LOGIN_REFUSED_SQLSTATE.test(code)) return LOGIN_REFUSED;
  if ((code !== undefined && LOST_ERRNO.has(code)) || LOST_MESSAGE.test(message)) return OUTCOME_UNKNOWN;
  if (UNREACHED_MESSAGE.test(message)) return UNAVAILABLE;
  if (e instanceof AggregateError) {
    for (const inner of e.errors) {
      const kind = classifyDatabaseError(inner);
      if (kind !== undefined) return kind;
    }
  }
  return undefined;
}

/**
 * What `error` (or an error of its `cause` chain, at most 5 deep) means, or undefined for any
 * other error (a bug, a bad query, a constraint the caller handles). The classifier of both
 * drivers and of a Kysely of your own.
 *
 * @example
 * ```ts
 * classifyDatabaseError(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))
 * // { kind: 'timeout', stored: 'no' }
 * ```
 */
export function classifyDatabaseError(error: unknown): DatabaseFailure | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as ErrorLike).cause, depth++) {
    const kind = kindOf(e);
    if (kind !== undefined) return kind;
  }
  return undefined;
}

/** Whether the insert was refused by a foreign key (an order for a pet that does not exist). */
export function isForeignKeyViolation(error: unknown): boolean {
  return (error as ErrorLike | undefined)?.code === FOREIGN_KEY_VIOLATION;
}

/** Whether a pooler lent a backend that lacks, or already has, a statement name (send it unnamed). */
export function isStatementNameConflict(error: unknown): boolean {
  const code = (error as ErrorLike | undefined)?.code;
  return typeof code === 'string' && STATEMENT_NAME_CONFLICT.has(code);
}

/**
 * Whether the server itself answered with an ordinary SQL error (a recovery conflict, say), as
 * opposed to being unreachable, refusing connections or out of resources.
 */
export function answeredByServer(error: unknown): boolean {
  const { severity, code } = (error ?? {}) as ErrorLike;
  return typeof severity === 'string' && typeof code === 'string' && !NOT_ANSWERED_CLASS.test(code);
}
