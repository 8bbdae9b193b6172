import pg from 'pg';
import { checkedLsn } from './wal-position.js';

/**
 * The check a replica runs before a read: has it replayed the primary's position (`$lsn`). On a
 * server that is not a standby the replay position is null, so the check is never passed there.
 */
const CHECK_COLUMNS = 'coalesce(pg_last_wal_replay_lsn() >= $lsn::pg_lsn, false) as caught_up';

/** The check's verdict from its row, in either row mode. */
export function caughtUp(row: unknown): boolean {
  return (Array.isArray(row) ? row[0] : (row as { caught_up?: unknown } | undefined)?.caught_up) === true;
}

/** The check, with the position written in (checked: it is SQL text). */
export const checkSql = (lsn: string) => `select ${CHECK_COLUMNS.replace('$lsn', `'${checkedLsn(lsn)}'`)}`;

/**
 * `statements` as one simple-protocol query in a READ COMMITTED transaction of their own, whatever
 * the database or role defaults to: each statement takes a new snapshot, and no statement is
 * refused for SERIALIZABLE (which a standby refuses). {@link statementResult} finds their results.
 */
export const readCommitted = (statements: string) => `begin isolation level read committed; ${statements}; commit`;

/** The result of statement `index` (from 0) of a {@link readCommitted} query: the BEGIN's comes first. */
export function statementResult<T>(results: readonly T[], index: number): T | undefined {
  return results[index + 1];
}

/**
 * One round trip that checks and then reads: the check and the read as two statements of one
 * {@link readCommitted} query, with the read's parameters written in as literals. Two statements, not one: a statement takes its snapshot before it
 * evaluates its functions, so a check inside the read could see a position the read's snapshot
 * does not include. READ COMMITTED whatever the database or role defaults to: each statement then
 * takes a new snapshot, so the read sees at least what the check saw; at REPEATABLE READ the read
 * would reuse the check's snapshot (taken before the check ran), and SERIALIZABLE fails on a standby.
 *
 * Undefined when the read cannot be written that way (a parameter of another type, or text that
 * is not plainly placeholders and quoted identifiers); the caller then sends the check and the
 * read one after the other (each a transaction of its own, so each its own snapshot; at a
 * SERIALIZABLE default such a read fails on the replica and runs on the primary).
 */
export function checkThenRead(lsn: string, sql: string, parameters: readonly unknown[]): string | undefined {
  const read = withLiterals(sql, parameters);
  return read === undefined ? undefined : readCommitted(`${checkSql(lsn)}; ${read}`);
}

/** Quoted identifiers (`"a""b"`) or anything else up to the next one. */
const PIECES = /"(?:[^"]|"")*"|[^"]+/g;
const PLACEHOLDER = /\$(\d+)/g;

/**
 * `sql` with each `$n` replaced by parameter n as a quoted literal of unknown type, which
 * PostgreSQL types from its context exactly as it types an untyped parameter (pg sends parameters
 * as text of unknown type). Undefined when `sql` holds a string literal, a dollar sign that is not
 * a placeholder, a placeholder without a parameter, or a parameter that is not a plain value.
 */
export function withLiterals(sql: string, parameters: readonly unknown[]): string | undefined {
  let out = '';
  for (const [piece] of sql.matchAll(PIECES)) {
    if (piece.startsWith('"')) {
      out += piece;
      continue;
    }
    let failed = false;
    const replaced = piece.replace(PLACEHOLDER, (_, n: string) => {
      const index = Number(n) - 1;
      const value = index < parameters.length ? literal(parameters[index]) : undefined;
      if (value === undefined) failed = true;
      return value ?? '';
    });
    if (failed || /['$\\]/.test(piece.replace(PLACEHOLDER, ''))) return undefined;
    out += replaced;
  }
  return out;
}

function literal(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'bigint':
    case 'boolean':
      return `'${value}'`;
    case 'number':
      return Number.isFinite(value) ? `'${value}'` : undefined;
    case 'string':
      return value.includes('\0') ? undefined : pg.escapeLiteral(value);
    default:
      return value instanceof Date && Number.isFinite(value.getTime()) ? `'${value.toISOString()}'` : undefined;
  }
}
