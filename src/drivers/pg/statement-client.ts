import type { PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { isStatementNameConflict } from '../classify.js';
import type { PreparedStatement } from '../contract.js';
import type { ServerBound } from './server-bound.js';
import { type StatementDeadlines, type StatementTimeoutError, type TimedStatement, mustDestroy } from './timeout.js';

/** What one pool of ours decided about its statements; shared by all its clients. */
export interface PoolStatements {
  /** Name the store's statements (off up front with `preparedStatements: false`, or after a pooler refused one). */
  naming: boolean;
  /** The pool's statement timeout (timeout.ts), if it has one. */
  readonly deadlines: StatementDeadlines | undefined;
  /** The server-side bound of the store's writes (server-bound.ts), with the pool's statement timeout. */
  readonly writes?: ServerBound | undefined;
  /** Told of every statement that failed (a multi-host pool checks its host again, host-set.ts). */
  readonly failed?: (error: Error) => void;
}

/** pg's query callback: an error (pg passes null for none), or the result. */
export type Callback<R> = (error: Error | null | undefined, result: PostgresQueryResult<R> | undefined) => void;

type Query = (config: string | pg.QueryConfig | pg.QueryArrayConfig, values: unknown[] | undefined, callback: Callback<unknown>) => void;

/**
 * A pg PoolClient as Kysely's `PostgresPoolClient` sees it (every query passes through as Kysely
 * sent it), plus {@link sendPrepared} for the store's own statements (pool-runner.ts): pg's
 * documented query config `{ name, text, rowMode: 'array' }`, named (parsed and planned once per
 * backend) while naming is on.
 *
 * Pooler safety: names come from the SQL text, so one name means one text on every backend. A
 * transaction-mode pooler (PgBouncer before 1.21) may still lend a backend that lacks a name this
 * client prepared elsewhere or already has one another client prepared (classify.ts): the
 * statement is then sent again unnamed and naming stops for the whole pool. Prepared statements
 * never run inside a transaction (the runner lends a client of its own), so a refusal aborts none.
 *
 * A query that timed out (timeout.ts) marks the client: it is destroyed when released.
 *
 * One statement at a time per connection (Kysely's connection and the runner send one, then wait),
 * so the answer's callback is one field, and the callback pg is given is one function per client,
 * not a closure per query.
 */
export class StatementClient implements TimedStatement {
  #released = false;
  /** The timeout's error once a statement on this connection timed out: the connection may be stuck. */
  #broken: Error | undefined;
  /** Who waits for the statement in flight; undefined when none is, or once it timed out. */
  #callback: Callback<unknown[]> | undefined;
  /** The names of writes prepared on this connection (SQL `PREPARE`, #sendWrite). */
  #prepared: Set<string> | undefined;
  /** The deadlines watching the statement in flight. */
  #deadlines: StatementDeadlines | undefined;
  /** When the statement in flight was sent (performance.now()), for the pool's deadlines. */
  sentAt = 0;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly statements: PoolStatements,
  ) {}

  query<R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    return new Promise<PostgresQueryResult<R>>((resolve, reject) => {
      this.#send(text, values as unknown[], (error, result) => (error ? reject(error) : resolve(result as PostgresQueryResult<R>)));
    });
  }

  /** Any query config of pg's (text, values, rowMode), in promise form: the replica's reads. */
  send<T>(config: pg.QueryConfig): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#send(config, config.values as unknown[], (error, result) => (error ? reject(error) : resolve(result as T)));
    });
  }

  /** One of the store's own statements, rows as arrays; in pg's callback form (one promise of the caller's per statement). */
  sendPrepared(statement: PreparedStatement, values: unknown[], callback: Callback<unknown[]>): void {
    const writes = statement.write === true ? this.statements.writes : undefined;
    if (writes !== undefined && !writes.inSession) return this.#sendWrite(statement, values, callback, writes);
    const deadlines = writes?.deadlines ?? this.statements.deadlines;
    const text = statement.sql;
    if (!this.statements.naming) return this.#send({ text, rowMode: 'array' }, values, callback, deadlines);
    this.#send(
      { name: statement.name, text, rowMode: 'array' },
      values,
      (error, result) => {
        if (!error || !isStatementNameConflict(error)) return callback(error, result);
        this.statements.naming = false;
        this.#send({ text, rowMode: 'array' }, values, callback, deadlines);
      },
      deadlines,
    );
  }

  /**
   * A write under the server's bound (server-bound.ts): `EXECUTE` of its name, prepared in the same
   * message on first use on this connection. A name the backend already has (42P05: prepared by a
   * message whose answer was lost, or a pooler's other client) is then taken as prepared; a name it
   * lacks (26000: a pooler lent another backend) stops naming for the pool, and the write goes in
   * full. Several statements, several results (pg answers an array): the write's is the last.
   */
  #sendWrite(statement: PreparedStatement, values: unknown[], callback: Callback<unknown[]>, writes: ServerBound): void {
    const last = lastResult(callback);
    const send = (text: () => string, then: Callback<unknown[]>) => {
      let message: string;
      try {
        message = text();
      } catch (error) {
        return callback(error as Error, undefined);
      }
      this.#send({ text: message, rowMode: 'array' }, undefined, then, writes.deadlines);
    };
    const inFull = () => send(() => writes.text(statement, values), last);
    if (!this.statements.naming) return inFull();
    const prepared = (this.#prepared ??= new Set()).has(statement.name);
    send(
      () => writes.execute(statement, values, !prepared),
      (error, result) => {
        if (!error) this.#prepared!.add(statement.name);
        if (!error || !isStatementNameConflict(error)) return last(error, result);
        if (prepared) {
          this.statements.naming = false;
          return inFull();
        }
        this.#prepared!.add(statement.name);
        send(
          () => writes.execute(statement, values, false),
          (again, answer) => {
            if (!again || !isStatementNameConflict(again)) return last(again, answer);
            this.statements.naming = false;
            inFull();
          },
        );
      },
    );
  }

  /** Lent out again by the pool (the same pg client): start afresh. */
  lent(): this {
    this.#released = false;
    return this;
  }

  /** Back to the pool; destroyed (pg-pool's documented `release(true)`) after a timeout. */
  release(destroy?: boolean): void {
    if (this.#released) return;
    this.#released = true;
    this.client.release(destroy === true || this.#broken !== undefined);
  }

  #send(
    config: string | pg.QueryConfig | pg.QueryArrayConfig,
    values: unknown[] | undefined,
    callback: Callback<unknown[]>,
    deadlines = this.statements.deadlines,
  ): void {
    // pg's documented callback form: its promise form wraps every query in two more promises.
    // A connection whose statement timed out answers nothing more in time (pg would queue behind
    // the stuck statement): fail at once, so a transaction's ROLLBACK does not wait a second bound.
    if (this.#broken !== undefined) return callback(this.#broken, undefined);
    if (this.#callback !== undefined) {
      return callback(new Error('petstore-router: a statement was sent on a connection whose last statement has not answered'), undefined);
    }
    this.#callback = callback;
    this.#deadlines = deadlines;
    deadlines?.started(this);
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the client as `this` below
    const query = this.client.query as unknown as Query;
    try {
      query.call(this.client, config, values, this.#answered);
    } catch (error) {
      this.#answered(error as Error, undefined);
    }
  }

  /** pg's answer to the statement in flight; ignored when the statement timed out first. */
  readonly #answered: Callback<unknown> = (error, result) => {
    const callback = this.#callback;
    if (callback === undefined) return;
    this.#callback = undefined;
    this.#deadlines?.ended(this);
    if (error) {
      if (mustDestroy(error)) this.#broken = error;
      this.statements.failed?.(error);
    }
    callback(error, result as PostgresQueryResult<unknown[]> | undefined);
  };

  /** The pool's deadlines: the statement in flight got no answer in time. */
  timedOut(error: StatementTimeoutError): void {
    const callback = this.#callback;
    if (callback === undefined) return;
    this.#callback = undefined;
    this.#broken = error;
    this.statements.failed?.(error);
    callback(error, undefined);
  }
}

/** `callback` given the last result of a multi-statement message's array (or the one result). */
function lastResult(callback: Callback<unknown[]>): Callback<unknown[]> {
  return (error, result) => callback(error, Array.isArray(result) ? (result.at(-1) as PostgresQueryResult<unknown[]>) : result);
}
