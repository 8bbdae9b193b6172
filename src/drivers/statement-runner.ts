import type { Kysely } from 'kysely';

/**
 * The one seam of the direct path for the store's own statements (storage/statement.ts): a driver
 * that created a Kysely may attach a runner to it that sends those statements by the driver's own
 * documented API, skipping Kysely's executor layers (connection provider, driver acquire and
 * release, result transform), which the store's own statements do not need: they use no plugin,
 * no logging and no transaction.
 *
 * The runner serves only the exact Kysely instance it was attached to, never a Transaction, a
 * connection-bound Kysely (`db.connection()`) or a copy made by `withPlugin`/`withSchema`/
 * `withoutPlugins`: those are other instances, so their statements keep Kysely's own path and
 * stay on the connection Kysely chose. Delete the `attachStatementRunner` call in a driver and
 * every statement takes the plain path again; test/statement-runner.test.ts runs both paths.
 */
export interface StatementRunner {
  /**
   * Runs one of the store's own statements (its text registered in own-statements.ts) with
   * `parameters`, outside any transaction, and resolves with `map` applied to its rows, which are
   * arrays in the statement's column order.
   */
  run<R>(sql: string, parameters: readonly unknown[], map: (rows: unknown[][]) => R): Promise<R>;
}

const runners = new WeakMap<Kysely<any>, StatementRunner>();

/** Attaches `runner` to `db`, a Kysely the driver created and whose connections it owns. */
export function attachStatementRunner(db: Kysely<any>, runner: StatementRunner): void {
  runners.set(db, runner);
}

/** The runner attached to exactly this Kysely instance, or undefined (Kysely's own path). */
export function statementRunnerOf(db: Kysely<any>): StatementRunner | undefined {
  return runners.get(db);
}
