import pg from 'pg';
import { type PreparedStatement, SERVER_ANSWER_GRACE_MS } from '../contract.js';
import { StatementDeadlines } from './timeout.js';

/**
 * The server-side bound of a pool's writes (a statement marked `write`, sent outside any
 * transaction): PostgreSQL itself ends the statement at `timeoutMs` (SQLSTATE 57014, its implicit
 * transaction rolled back), so a 503 for it means nothing was stored and a retry never duplicates.
 *
 * The statement goes as one simple-query message, `SET LOCAL statement_timeout = N; <statement>`:
 * the SET holds for that message's implicit transaction only, so nothing stays on a backend a
 * transaction-mode pooler lends next (PgBouncer refuses a `statement_timeout` startup parameter, and
 * a session SET would leak to its next client), and PostgreSQL 13+ times each statement of the
 * message apart, so the insert gets the new bound. A simple query takes no parameters, so the
 * values are written in as literals with pg's documented `escapeLiteral` (each a quoted literal of
 * unknown type, which PostgreSQL resolves from context as it would a parameter's). While the pool
 * names statements, the write is an `EXECUTE` of a statement prepared on the connection, so
 * PostgreSQL parses and plans it once per backend (statement-client.ts).
 *
 * Where the pool's sessions already run under the bound (`inSession`, session-bound.ts), a write
 * goes as any statement does, with this bound's client deadline: the prefix would cost every create.
 */
export class ServerBound {
  /** The client's own deadline for these statements: the server's bound plus the grace. */
  readonly deadlines: StatementDeadlines;
  readonly #prefix: string;
  /** Each statement's text split at its `$n` placeholders, once per text. */
  readonly #split = new Map<string, { parts: string[]; slots: number[] }>();

  constructor(
    readonly timeoutMs: number,
    readonly inSession = false,
  ) {
    this.deadlines = new StatementDeadlines(timeoutMs + SERVER_ANSWER_GRACE_MS);
    this.#prefix = `SET LOCAL statement_timeout = ${Math.floor(timeoutMs)}; `;
  }

  /** The message that sends `statement` with `values` under the server's bound, its text in full (not named). */
  text(statement: PreparedStatement, values: readonly unknown[]): string {
    let split = this.#split.get(statement.sql);
    if (split === undefined) this.#split.set(statement.sql, (split = splitPlaceholders(statement.sql)));
    let text = this.#prefix + split.parts[0]!;
    for (let i = 0; i < split.slots.length; i++) text += literal(values[split.slots[i]!]) + split.parts[i + 1]!;
    return text;
  }

  /**
   * The message that runs `statement`, prepared by name on the connection (SQL `PREPARE`, planned
   * once per backend like the protocol-level names of reads), under the server's bound; with
   * `prepare`, it prepares it first, in the same message.
   */
  execute(statement: PreparedStatement, values: readonly unknown[], prepare: boolean): string {
    let text = this.#prefix;
    if (prepare) text += `PREPARE ${statement.name} AS ${statement.sql}; `;
    text += `EXECUTE ${statement.name}(`;
    for (let i = 0; i < values.length; i++) text += (i === 0 ? '' : ', ') + literal(values[i]);
    return text + ')';
  }

  close(): void {
    this.deadlines.close();
  }
}

/** `sql` around its `$n` placeholders (Kysely's compiled text has no `$` elsewhere: no dollar quoting). */
function splitPlaceholders(sql: string): { parts: string[]; slots: number[] } {
  const parts: string[] = [];
  const slots: number[] = [];
  let last = 0;
  for (const match of sql.matchAll(/\$(\d+)/g)) {
    parts.push(sql.slice(last, match.index));
    slots.push(Number(match[1]) - 1);
    last = match.index + match[0].length;
  }
  parts.push(sql.slice(last));
  return { parts, slots };
}

/** A value as an SQL literal: NULL, or quoted text (what pg would send as the parameter's text). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return `'${String(value)}'`;
  throw new TypeError(`petstore-router: a write's parameter of type ${typeof value} cannot be written as a literal`);
}
