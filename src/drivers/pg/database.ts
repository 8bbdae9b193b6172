// The pg driver: a Kysely on a pool of ours (with its statement runner) or on a caller's pool.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseWithStatements, StatementRunner } from '../statements.js';
import { borrowedPool, lender, ownPool, statementPool } from './pool.js';
import { poolStatementRunner } from './pool-runner.js';
import { boundConfig, checkMaxWait } from './partition.js';
import { timeoutConfig } from './timeout.js';

/** What `createPostgresDatabase` connects to: a URL, a pool config, or a `pg.Pool` you own. */
export type PostgresSource = string | pg.PoolConfig | pg.Pool;

/**
 * The Kysely `createPostgresDatabase` returns for a pool of its own: a plain Kysely that also
 * carries the runner of the store's prepared statements (`statements`, read by `createPetStore`),
 * and whose `destroy()` ends the pool even if only the runner used it.
 */
export class PostgresDatabase<DB> extends Kysely<DB> implements DatabaseWithStatements<DB> {
  readonly #end: () => Promise<void>;

  /** @internal Made by {@link openPostgres}. */
  constructor(
    dialect: PostgresDialect,
    readonly statements: StatementRunner,
    end: () => Promise<void>,
  ) {
    super({ dialect });
    this.#end = end;
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    await this.#end();
  }
}

/**
 * Kysely on `source`, unmigrated: a pool of ours (safe defaults, the statement timeout, a
 * statement runner) for a URL or config, a borrowed view for a caller's `pg.Pool`.
 */
export function openPostgres<DB>(source: PostgresSource, options: { preparedStatements?: boolean; maxWaitMs?: number }): Kysely<DB> {
  const maxWaitMs = checkMaxWait(options.maxWaitMs);
  if (source instanceof pg.Pool) {
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool: borrowedPool(source) }) });
  }
  const { statement_timeout: timeout, ...config } = typeof source === 'string' ? { connectionString: source } : source;
  // The statement timeout is the statement part of the partition bound unless the config sets one.
  const timeoutMs = timeout === false ? 0 : (timeout ?? maxWaitMs);
  const pool = ownPool({ ...boundConfig(maxWaitMs), ...timeoutConfig(timeoutMs), ...config });
  const lend = lender(pool, { naming: options.preparedStatements !== false });
  const kyselyPool = statementPool(pool, lend);
  return new PostgresDatabase<DB>(new PostgresDialect({ pool: kyselyPool }), poolStatementRunner(lend), () => kyselyPool.end());
}
