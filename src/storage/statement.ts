import { type Compilable, type CompiledQuery, Kysely } from 'kysely';
import type { PreparedStatement, StatementRunner } from '../drivers/contract.js';
import { sha256Hex } from '../http/sha256.js';
import type { Database } from './database.js';

/**
 * Where a statement runs: a Kysely (or a Transaction), run through Kysely's public
 * `executeQuery`; or the store's database with the runner its driver gave (drivers/contract.ts),
 * which runs the store's statements outside any transaction, prepared.
 */
export type StatementTarget = Kysely<Database> | { readonly db: Kysely<Database>; readonly statements: StatementRunner | undefined };

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
  ) {}

  /**
   * Runs the statement with `args` on `target` and maps its rows: by the driver's runner when the
   * target has one, else by Kysely's public `executeQuery`.
   */
  run(target: StatementTarget, ...args: A): Promise<R[]> {
    return this.#send(target, args, this.#records);
  }

  /** The first row of the answer, mapped; undefined when there is none. */
  first(target: StatementTarget, ...args: A): Promise<R | undefined> {
    return this.#send(target, args, this.#first);
  }

  /** The one row of an answer that must have one (`insert ... returning`); it fails without. */
  one(target: StatementTarget, ...args: A): Promise<R> {
    return this.#send(target, args, this.#one);
  }

  /**
   * Sends the statement and maps the rows with `map` in the step that receives them (the runner's
   * callback, or the one `then` of Kysely's path): not an async function, and no `then` of a
   * caller's for picking a row, so the answer is one promise hop from the driver's.
   */
  #send<T>(target: StatementTarget, args: A, map: (rows: readonly unknown[]) => T): Promise<T> {
    const db = target instanceof Kysely ? target : target.db;
    const runner = target instanceof Kysely ? undefined : target.statements;
    let compiled: Compiled;
    try {
      compiled = this.#compile(db);
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
      const prepared = { name: `petstore_${sha256Hex(query.sql).slice(0, 32)}`, sql: query.sql };
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
 * order. `fromArray` maps a row given as an array in the statement's column order.
 */
export function defineStatement<A extends readonly unknown[], R>(
  description: string,
  arity: A['length'],
  build: (db: Kysely<Database>, ...slots: never[]) => Compilable<unknown>,
  fromArray: (row: readonly unknown[]) => R,
): Statement<A, R> {
  return new Statement<A, R>(description, build, fromArray, arity);
}

// The statements' observer: one job with running them (every statement asks for it).

/**
 * Who is told about the store's own statements while a request runs (Server-Timing's `db`, the
 * OpenTelemetry database spans): the request's observer, found through an async context scope
 * (AsyncLocalStorage) that exists only once a store asked for observation. Without one, a statement
 * costs one `undefined` check here and nothing else.
 */
export interface StatementObserver {
  /** A statement starts; the function returned is called once when it ends, with its error if it failed. */
  statement(sql: string): (error?: unknown) => void;
}

interface Scope {
  run<T>(observer: StatementObserver, fn: () => T): T;
  getStore(): StatementObserver | undefined;
}

/** The process's one scope: like OpenTelemetry's context manager, one per process, made on first use. */
let scope: Scope | undefined;

/** The observer of the request whose work is running now, if any store observes. */
export function currentObserver(): StatementObserver | undefined {
  return scope?.getStore();
}

/**
 * The scope requests are run in, made on first use from the runtime's AsyncLocalStorage
 * (`node:async_hooks`, which Node, Deno, Bun and Workers with nodejs_compat provide). `option`
 * names the store option that needs it, for the error where there is none.
 */
export function observerScope(option: string): Scope {
  if (scope !== undefined) return scope;
  const hooks = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
    'node:async_hooks',
  ) as { AsyncLocalStorage?: new () => Scope } | undefined;
  if (hooks?.AsyncLocalStorage === undefined) {
    throw new TypeError(
      `petstore-router: ${option} needs AsyncLocalStorage (node:async_hooks through process.getBuiltinModule), which this runtime does not provide`,
    );
  }
  return (scope = new hooks.AsyncLocalStorage());
}
