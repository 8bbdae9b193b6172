// `petstore-router/pg`: PostgreSQL through node-postgres, for production and scale-out (directly
// or behind a transaction-mode pooler such as PgBouncer).
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../../storage/database.js';
import { migrateOrDestroy } from '../../storage/migrate.js';
import { attachStatementRunner } from '../statement-runner.js';
import { borrowedPool, lender, ownPool, statementPool } from './pool.js';
import { poolStatementRunner } from './pool-runner.js';
import { withReadReplicas } from './with-replicas.js';
import { Watchdog } from './watchdog.js';

export { readRouting } from './with-replicas.js';
export type { ReadRouting, ReplicaState, ReplicaStatus } from '../read-view.js';

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
  /**
   * Read replicas (PostgreSQL streaming standbys of this primary, directly or each behind its own
   * pooler): URLs or `pg.PoolConfig`s, one server each. Reads (list and get pets, list orders,
   * health's query) run on a replica that has replayed the primary's WAL position as it was when
   * the read arrived, else on the primary, so a client never reads less than it wrote through any
   * process sharing this primary; writes, idempotency records and rate-limit counts always run on
   * the primary. A replica down, refusing or lagging past `maxReplicaLagMs` is skipped (its reads
   * run on the primary) and taken back once a probe finds it well. See docs/operations.md.
   * @default []
   * @example
   * ```ts
   * const db = await createPostgresDatabase(process.env.DATABASE_URL!, {
   *   readReplicas: [process.env.REPLICA_URL!],
   * })
   * ```
   */
  readReplicas?: ReadonlyArray<string | pg.PoolConfig>;
  /**
   * A read replica whose replay is behind the primary by more than this many milliseconds is
   * skipped until it catches up.
   * @default 1000
   */
  maxReplicaLagMs?: number;
}

const DEFAULT_MAX_REPLICA_LAG_MS = 1_000;

/** `options.readReplicas`, checked. */
function replicaSources(options: PostgresDatabaseOptions): ReadonlyArray<string | pg.PoolConfig> {
  const { readReplicas = [], maxReplicaLagMs } = options;
  const valid = (r: unknown) =>
    (typeof r === 'string' && r.trim() !== '') || (typeof r === 'object' && r !== null && !(r instanceof pg.Pool));
  if (!Array.isArray(readReplicas) || !readReplicas.every(valid)) {
    throw new TypeError('petstore-router: options.readReplicas must be an array of replica URLs (or pg.PoolConfig objects)');
  }
  if (maxReplicaLagMs !== undefined && !(Number.isFinite(maxReplicaLagMs) && maxReplicaLagMs > 0)) {
    throw new TypeError(
      `petstore-router: options.maxReplicaLagMs must be a positive number of milliseconds, got ${String(maxReplicaLagMs)}`,
    );
  }
  return readReplicas as ReadonlyArray<string | pg.PoolConfig>;
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
export async function createPostgresDatabase(
  source: string | pg.PoolConfig | pg.Pool,
  options: PostgresDatabaseOptions = {},
): Promise<Kysely<Database>> {
  const replicas = replicaSources(options);
  if (source instanceof pg.Pool) {
    if (replicas.length > 0) {
      throw new TypeError('petstore-router: readReplicas needs the primary as a URL or pg.PoolConfig (not a pg.Pool of yours)');
    }
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
  const reads = withReadReplicas(replicas, config, lend, {
    maxLagMs: options.maxReplicaLagMs ?? DEFAULT_MAX_REPLICA_LAG_MS,
    statementTimeoutMs: timeoutMs,
  });
  const open = () => {
    attachStatementRunner(db, poolStatementRunner(lend));
    reads?.start();
  };
  const primary = statementPool(pool, statements, lend, open);
  const db: Kysely<Database> = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: reads === undefined ? primary : { ...primary, end: () => reads.close().then(() => primary.end()) },
    }),
  });
  reads?.attach(db);
  return options.migrate === false ? db : migrateOrDestroy(db);
}
