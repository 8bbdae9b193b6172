import type { PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { ownStatement } from '../own-statements.js';
import type { CancelTarget } from './cancel.js';
import { isWaitExceeded } from './partition.js';
import { statementConfig } from './query-config.js';
import type { Watchdog, Watched } from './watchdog.js';

/** What one pool of ours decided about its statements; shared by all its clients. */
export interface PoolStatements {
  /** Name the store's own statements (off up front with `preparedStatements: false`, or after a pooler refused one). */
  naming: boolean;
  /** The statement timeout, or undefined for none. */
  watchdog: Watchdog | undefined;
}

/** SQLSTATEs of a named statement missing on, or already defined by another client on, the backend a pooler lent. */
const STATEMENT_NAME_CONFLICT = new Set(['26000', '42P05']);

/** Kysely's transaction statements (PostgresDriver): `begin` / `start transaction ...`, `commit`, `rollback`. */
const BEGIN = /^(?:begin|start transaction)\b/i;
const END = /^(?:commit|rollback)$/i;

type Config = string | pg.QueryConfig | pg.QueryArrayConfig;

/** pg's query callback: an error (pg passes null for none), or the result. */
export type Callback<R> = (error: Error | null | undefined, result: PostgresQueryResult<R> | undefined) => void;

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
export class StatementClient implements Watched {
  startedAt = 0;
  #inTransaction = false;
  #released = false;
  /** The bound's error once a statement on this connection went past it: the connection is stuck. */
  #stuck: Error | undefined;
  readonly #finished = () => {
    this.startedAt = 0;
    this.statements.watchdog?.stop(this);
  };

  constructor(
    private readonly client: pg.PoolClient,
    private readonly statements: PoolStatements,
  ) {}

  get cancelTarget(): CancelTarget {
    return this.client;
  }

  get processID(): number | undefined {
    return this.cancelTarget.processID ?? undefined;
  }

  query<R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    return new Promise<PostgresQueryResult<R>>((resolve, reject) => {
      this.send<R>(text, values as unknown[], (error, result) => (error ? reject(error) : resolve(result!)));
    });
  }

  /**
   * {@link query} in pg's callback form, for the direct path (pool-runner.ts): one promise of the
   * caller's per statement instead of one here and one there.
   */
  send<R>(text: string, values: unknown[], callback: Callback<R>): void {
    // A stuck connection answers nothing more (pg would queue behind the stuck statement): fail
    // at once, so a transaction's ROLLBACK after a timed-out statement does not wait a second bound.
    if (this.#stuck !== undefined) return callback(this.#stuck, undefined);
    const own = ownStatement(text);
    if (own === undefined) {
      if (values.length === 0) {
        if (BEGIN.test(text)) this.#inTransaction = true;
        else if (END.test(text)) this.#inTransaction = false;
      }
      return this.#send(text, values, callback);
    }
    if (!this.statements.naming || this.#inTransaction) return this.#send(statementConfig(undefined, text), values, callback);
    this.#send<R>(statementConfig(own.name, text), values, (error, result) => {
      if (!error || !STATEMENT_NAME_CONFLICT.has((error as { code?: unknown }).code as string)) return callback(error, result);
      this.statements.naming = false;
      this.#send<R>(statementConfig(undefined, text), values, callback);
    });
  }

  /** Lent out again by the pool (the same pg client): start afresh. */
  lent(): this {
    this.#released = false;
    this.#inTransaction = false;
    return this;
  }

  release(destroy?: boolean): void {
    if (this.#released) return; // already dropped by the watchdog
    this.#released = true;
    // pg-pool destroys a client released with an error, and lends it never again.
    this.client.release(this.#stuck ?? destroy);
  }

  abandon(): void {
    if (this.#released) return;
    this.#released = true;
    this.client.release(true);
  }

  #send<R>(config: Config, values: unknown[], callback: Callback<R>): void {
    // pg's documented callback form: pg's promise form wraps every query in two promises and a
    // per-query `catch` closure, which kept V8's young generation full of survivors (several times
    // the garbage collection per query, docs/performance.md, item 27).
    // The text or config and the values apart: `client.query(textOrConfig, values, callback)`.
    const query = this.client.query as (config: Config, values: unknown[], callback: Callback<R>) => void;
    // The watchdog's bookkeeping is done in pg's callback: nothing chained per query.
    const { watchdog } = this.statements;
    if (watchdog === undefined) {
      try {
        query.call(this.client, config, values, (error, answer) => {
          if (isWaitExceeded(error)) this.#stuck = error;
          callback(error, answer);
        });
      } catch (error) {
        callback(error as Error, undefined);
      }
      return;
    }
    this.startedAt = Date.now();
    watchdog.start(this);
    try {
      query.call(this.client, config, values, (error, answer) => {
        this.#finished();
        if (isWaitExceeded(error)) this.#stuck = error;
        callback(error, answer);
      });
    } catch (error) {
      this.#finished();
      callback(error as Error, undefined);
    }
  }
}
