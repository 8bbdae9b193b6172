import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { PreparedStatement, StatementRunner } from '../drivers/contract.js';
import { sha256Hex } from '../http/sha256.js';
import type { Database } from './database.js';
import { currentObserver } from './observer.js';

/**
 * Where a statement runs: on `kysely` (a Kysely or a Transaction) through Kysely's public
 * `executeQuery`, or by `runner`, the database's statement runner (drivers/contract.ts), which runs
 * the store's statements outside any transaction. Repositories choose it (repositories.ts).
 */
export interface Executor {
  readonly kysely: Kysely<Database>;
  readonly runner?: StatementRunner | undefined;
}

/** Stands for an argument while a statement is compiled. */
class Slot {
  constructor(readonly index: number) {}
}

interface Compiled {
  query: CompiledQuery<unknown>;
  /** The text and its name, for a driver's runner. */
  prepared: PreparedStatement;
  /** For each compiled parameter: the index of the argument it takes, or -1 (a constant). */
  sources: number[];
  /** The same Kysely without plugins: the store maps its own rows, no plugin's transformResult does. */
  raw: Kysely<Database>;
}

/**
 * One statement of the store, built with Kysely's query builder and compiled once per Kysely
 * instance (so per dialect and plugin set: a schema plugin gives other SQL, compiled apart). The
 * object itself is the statement's identity: a new filter needs a new `defineStatement`, so it can
 * never reuse another shape's SQL by a mistyped key.
 */
export class Statement<A extends readonly unknown[], R> {
  readonly #compiled = new WeakMap<Kysely<Database>, Compiled>();

  constructor(
    /** What the statement does, for readers and error messages. */
    readonly description: string,
    private readonly build: (db: Kysely<Database>, ...slots: never[]) => Compilable<unknown>,
    private readonly fromArray: (row: readonly unknown[]) => R,
    private readonly arity: A['length'],
    /** A write outside any transaction, which the driver bounds on the server (contract.ts, `PreparedStatement.write`). */
    private readonly write = false,
  ) {}

  /**
   * Runs the statement with `args` on `on` and maps its rows: by the runner when there is one, else
   * by Kysely's public `executeQuery`.
   */
  run(on: Executor, ...args: A): Promise<R[]> {
    return this.#send(on, args, this.#records);
  }

  /** The first row of the answer, mapped; undefined when there is none. */
  first(on: Executor, ...args: A): Promise<R | undefined> {
    return this.#send(on, args, this.#first);
  }

  /** The one row of an answer that must have one (`insert ... returning`); it fails without. */
  one(on: Executor, ...args: A): Promise<R> {
    return this.#send(on, args, this.#one);
  }

  /**
   * Sends the statement and maps the rows with `map` in the step that receives them (the runner's
   * callback, or the one `then` of Kysely's path): not an async function, and no `then` of a
   * caller's for picking a row, so the answer is one promise hop from the driver's.
   */
  #send<T>(on: Executor, args: A, map: (rows: readonly unknown[]) => T): Promise<T> {
    const { kysely, runner } = on;
    let compiled: Compiled;
    try {
      compiled = this.#compile(kysely);
    } catch (error) {
      return Promise.reject(error);
    }
    const { query, prepared, sources, raw } = compiled;
    const parameters = sources.map((source, i) => (source === -1 ? query.parameters[i] : args[source]));
    const done = currentObserver()?.statement(query.sql);
    const ran =
      runner !== undefined
        ? runner.run(prepared, parameters, map)
        : raw.executeQuery<unknown>({ ...query, parameters }).then(({ rows }) => map(rows));
    return done === undefined ? ran : observed(ran, done);
  }

  /** A runner answers with array rows; Kysely's path with objects already keyed by the statement's column names. */
  readonly #records = (rows: readonly unknown[]): R[] => {
    if (rows.length === 0 || !Array.isArray(rows[0])) return rows as R[];
    const records = new Array<R>(rows.length);
    for (let i = 0; i < rows.length; i++) records[i] = this.fromArray(rows[i] as unknown[]);
    return records;
  };

  readonly #first = (rows: readonly unknown[]): R | undefined => {
    if (rows.length === 0) return undefined;
    const row = rows[0];
    return Array.isArray(row) ? this.fromArray(row) : (row as R);
  };

  readonly #one = (rows: readonly unknown[]): R => {
    const record = this.#first(rows);
    if (record === undefined) throw new Error(`petstore-router: ${this.description} answered no row`);
    return record;
  };

  #compile(db: Kysely<Database>): Compiled {
    let compiled = this.#compiled.get(db);
    if (compiled === undefined) {
      const slots = Array.from({ length: this.arity }, (_, i) => new Slot(i));
      const query = this.build(db, ...(slots as never[])).compile();
      const sources = query.parameters.map((p) => (p instanceof Slot ? p.index : -1));
      // 128 bits of SHA-256 of the text: one name, one text, in every process; well under
      // PostgreSQL's 63-byte identifier limit.
      const prepared = { name: `petstore_${sha256Hex(query.sql).slice(0, 32)}`, sql: query.sql, write: this.write };
      compiled = { query, prepared, sources, raw: db.withoutPlugins() };
      this.#compiled.set(db, compiled);
    }
    return compiled;
  }
}

/** `ran`, with `done` told when it settles (the observer, below). */
function observed<R>(ran: Promise<R>, done: (error?: unknown) => void): Promise<R> {
  return ran.then(
    (result) => (done(), result),
    (error: unknown) => {
      done(error);
      throw error;
    },
  );
}

/**
 * Defines a statement taking `arity` arguments. `build` receives one placeholder per argument; the
 * SQL text is exactly what Kysely compiles, the arguments are bound as parameters in the compiled
 * order. `fromArray` maps a row given as an array in the statement's column order. `write`: a
 * write whose timeout must mean nothing stored (a create), ended by the server at the bound.
 */
export function defineStatement<A extends readonly unknown[], R>(
  description: string,
  arity: A['length'],
  build: (db: Kysely<Database>, ...slots: never[]) => Compilable<unknown>,
  fromArray: (row: readonly unknown[]) => R,
  { write = false }: { write?: boolean } = {},
): Statement<A, R> {
  return new Statement<A, R>(description, build, fromArray, arity, write);
}
