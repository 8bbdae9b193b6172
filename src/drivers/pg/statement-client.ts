import type { PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { ownStatement } from '../own-statements.js';
import type { CancelTarget } from './cancel.js';
import { withDeadline } from './deadline.js';

/** What one pool of ours decided about its statements; shared by all its clients. */
export interface PoolStatements {
  /** Name the store's own statements (off up front with `preparedStatements: false`, or after a pooler refused one). */
  naming: boolean;
  /** The deadline of every statement in ms (0: none). */
  timeoutMs: number;
}

/** SQLSTATEs of a named statement missing on, or already defined by another client on, the backend a pooler lent. */
const STATEMENT_NAME_CONFLICT = new Set(['26000', '42P05']);

/** Kysely's transaction statements (PostgresDriver): `begin` / `start transaction ...`, `commit`, `rollback`. */
const BEGIN = /^(?:begin|start transaction)\b/i;
const END = /^(?:commit|rollback)$/i;

/**
 * A pg PoolClient as Kysely's `PostgresPoolClient` sees it, sending the store's own statements
 * (drivers/own-statements.ts) through pg's documented query config: `rowMode: 'array'` always, and
 * a `name` (so each backend parses and plans the statement once) when naming is on and the
 * statement is not inside a transaction. Every other query goes to pg as Kysely sent it.
 *
 * Pooler safety: names come from the SQL text, so one name means one text on every backend. A
 * transaction-mode pooler (PgBouncer before 1.21) may still lend a backend that lacks a name this
 * client prepared elsewhere (26000) or already has one another client prepared (42P05): the
 * statement is then sent again unnamed and naming stops for the whole pool. Inside a transaction a
 * failed statement would abort it, so statements there are never named.
 */
export class StatementClient {
  #inTransaction = false;
  #discard = false;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly statements: PoolStatements,
  ) {}

  get processID(): number | undefined {
    return (this.client as CancelTarget).processID ?? undefined;
  }

  async query<R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const own = ownStatement(text);
    if (own === undefined) {
      if (values.length === 0) {
        if (BEGIN.test(text)) this.#inTransaction = true;
        else if (END.test(text)) this.#inTransaction = false;
      }
      return this.#send({ text, values: values as unknown[] });
    }
    const parameters = values as unknown[];
    if (!this.statements.naming || this.#inTransaction) return this.#send({ text, values: parameters, rowMode: 'array' });
    try {
      return await this.#send({ name: own.name, text, values: parameters, rowMode: 'array' });
    } catch (error) {
      if (!STATEMENT_NAME_CONFLICT.has((error as { code?: unknown }).code as string)) throw error;
      this.statements.naming = false;
      return this.#send({ text, values: parameters, rowMode: 'array' });
    }
  }

  release(destroy?: boolean): void {
    this.#inTransaction = false;
    const discard = this.#discard;
    this.#discard = false;
    this.client.release(destroy || discard);
  }

  #send<R>(config: pg.QueryConfig | pg.QueryArrayConfig): Promise<PostgresQueryResult<R>> {
    const result = (this.client.query as (config: pg.QueryConfig | pg.QueryArrayConfig) => Promise<unknown>)(config) as Promise<PostgresQueryResult<R>>;
    const { timeoutMs } = this.statements;
    if (timeoutMs === 0) return result;
    return withDeadline(result, timeoutMs, this.client as CancelTarget, () => {
      this.#discard = true;
    });
  }
}
