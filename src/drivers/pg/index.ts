// `petstore-router/pg`: PostgreSQL through node-postgres, for production and scale-out (directly
// or behind a transaction-mode pooler such as PgBouncer).
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../../storage/database.js';
import { migrateOrDestroy } from '../../storage/migrate.js';
import { attachStatementRunner } from '../statement-runner.js';
import { checkPostgresArguments } from './arguments.js';
import { borrowedPool, lender, ownPool, statementPool } from './pool.js';
import { poolStatementRunner } from './pool-runner.js';
import { Watchdog } from './watchdog.js';

/** Options of {@link createPostgresDatabase}. */
export interface PostgresDatabaseOptions {
  /**
   * Apply petstore-router's migrations before returning (safe when several processes start at once).
   * @default true
   */
  migrate?: boolean;
  /**
   * Name the store's own statements on pools created here, so PostgreSQL parses and plans each
   * once per connection. Behind a transaction-mode pooler that cannot keep named statements
   * (PgBouncer before 1.21, Supavisor, RDS Proxy) naming switches itself off at the first refusal,
   * with no failed request; `false` turns it off up front (no refused statement in the pooler's
   * log). Ignored for a `pg.Pool` you pass: nothing is ever named on it.
   * @default true
   */
  preparedStatements?: boolean;
}

/** The statement timeout of pools created here unless the config's `statement_timeout` says otherwise. */
const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

/**
 * A Kysely database on PostgreSQL, migrated.
 *
 * - A URL or a `pg.PoolConfig`: a Pool is created with safe defaults (connect timeout 5 s, int8
 *   parsed as bigint for this pool only, never through pg's global type parsers) and
 *   `db.destroy()` ends it. Every statement has a 10 s timeout (the config's `statement_timeout`
 *   to change it, 0 for none), applied by a client-side watchdog that cancels the statement on the
 *   server, never as a startup parameter, so a pooled URL works as it is.
 * - A `pg.Pool` you created: it stays yours (its parsers and settings are untouched, nothing is
 *   named on it; rows are normalised in our repositories) and `db.destroy()` does not end it.
 *
 * @example
 * ```ts
 * import { createPostgresDatabase } from 'petstore-router/pg'
 * const db = await createPostgresDatabase(process.env.DATABASE_URL!)
 * // A transaction-mode pooler that refuses named statements, known in advance:
 * const pooled = await createPostgresDatabase(process.env.POOLED_URL!, { preparedStatements: false })
 * ```
 */
export function createPostgresDatabase(
  source: string | pg.PoolConfig | pg.Pool,
  options: PostgresDatabaseOptions = {},
): Promise<Kysely<Database>> {
  checkPostgresArguments(source, options); // synchronously: a wrong source throws here, before any connection
  return openPostgresDatabase(source, options);
}

async function openPostgresDatabase(source: string | pg.PoolConfig | pg.Pool, options: PostgresDatabaseOptions): Promise<Kysely<Database>> {
  if (source instanceof pg.Pool) {
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: borrowedPool(source) }) });
    return options.migrate === false ? db : migrateOrDestroy(db);
  }
  const { statement_timeout: timeout, ...config } = typeof source === 'string' ? { connectionString: source } : source;
  const timeoutMs = timeout === false ? 0 : (timeout ?? DEFAULT_STATEMENT_TIMEOUT_MS);
  const pool = ownPool(config);
  const statements = { naming: options.preparedStatements !== false, watchdog: timeoutMs > 0 ? new Watchdog(timeoutMs) : undefined };
  const lend = lender(pool, statements);
  // The store's own statements on this Kysely skip its executor (statement-runner.ts) once Kysely
  // has opened its driver: only an opened driver is ended by `db.destroy()`, which must end the
  // pool. Delete the attach and they take Kysely's path, with the same results
  // (test/statement-runner.test.ts).
  const open = () => attachStatementRunner(db, poolStatementRunner(lend));
  const db: Kysely<Database> = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: statementPool(pool, statements, lend, open) }),
  });
  return options.migrate === false ? db : migrateOrDestroy(db);
}
