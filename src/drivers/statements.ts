import type { Kysely } from 'kysely';

/**
 * One of the store's own statements as a driver receives it: its SQL text and a name derived from
 * that text alone (so one name means one text in every process and on every backend a pooler
 * lends). The storage layer builds these (storage/statement.ts); a driver may prepare them by name.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly sql: string;
}

/**
 * What a driver of this package can do faster than Kysely's executor for the store's own
 * statements: send one outside any transaction, by the driver's documented API, and resolve with
 * `map` applied to its rows as arrays in the statement's column order (a throw of `map` is the
 * promise's rejection: storage checks rows there). Given explicitly: the
 * database object a driver returns carries it ({@link DatabaseWithStatements}); the store reads it
 * once at creation. Without it, every statement runs through Kysely's public `executeQuery`.
 */
export interface StatementRunner {
  run<R>(statement: PreparedStatement, parameters: readonly unknown[], map: (rows: unknown[][]) => R): Promise<R>;
}

/** A Kysely that says what else it can do: a runner for the store's prepared statements. */
export interface DatabaseWithStatements<DB> extends Kysely<DB> {
  readonly statements: StatementRunner | undefined;
}

/** The runner `db` carries, if it is a database object of ours. */
export function statementsOf<DB>(db: Kysely<DB>): StatementRunner | undefined {
  return (db as unknown as Partial<DatabaseWithStatements<unknown>>).statements;
}
