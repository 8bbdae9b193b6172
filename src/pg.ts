// `petstore-router/pg`: PostgreSQL through node-postgres, for production and scale-out (directly
// or behind a transaction-mode pooler such as PgBouncer).
import { POSTGRES_OPTION_NAMES, checkPostgresArguments } from './options/pg.js';
import type { Kysely } from 'kysely';
import { type PostgresSource, type ReplicaSource, isPgPool, openPostgres } from './drivers/pg/database.js';
import type { Database } from './storage/database.js';
import { migrateOrDestroy } from './storage/migrate.js';

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
   * Run the pool's sessions under the statement timeout where the server takes it at connect
   * (`options=-c statement_timeout=…`; PostgreSQL itself, checked with one connection at creation),
   * so PostgreSQL ends a stuck create with no `SET LOCAL` sent per create. A transaction-mode
   * pooler refuses or drops that parameter, a multi-host URL or a URL with its own `options` keeps
   * the `SET LOCAL`; `false` keeps it always (a pooler that passes startup parameters to a backend
   * without keeping them per client). Ignored for a `pg.Pool` you pass.
   * @default true
   */
  sessionStatementTimeout?: boolean;
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
  readReplicas?: readonly ReplicaSource[];
  /**
   * A read replica whose replay is behind the primary by more than this many milliseconds is
   * skipped until it catches up.
   * @default 1000
   */
  maxReplicaLagMs?: number;
  /**
   * The longest a request waits on PostgreSQL in each phase, on pools created here: connecting,
   * waiting for a pooled connection, and every statement (the default of `statement_timeout`).
   * Past it the request gets 503 + `Retry-After` and a statement's connection is destroyed, never
   * lent again, so a network partition (packets dropped, no reset) costs a bounded wait; the pool
   * reconnects by itself once the network is back. The config's own `connectionTimeoutMillis` and
   * `statement_timeout` win. Ignored for a `pg.Pool` you pass. See docs/reliability.md.
   * @default 5000
   */
  maxWaitMs?: number;
}

// POSTGRES_OPTION_NAMES names exactly the options above (a name missing on either side fails to compile).
type Named = (typeof POSTGRES_OPTION_NAMES)[number];
const optionNamesMatch: [Named, keyof PostgresDatabaseOptions] extends [keyof PostgresDatabaseOptions, Named] ? true : never = true;
void optionNamesMatch;

export { readRouting } from './drivers/pg/with-replicas.js';
/** @internal The checks of `petstore-router/cloudflare`'s options (its Workers entry runs on this one). */
export { checkWorkerConfigure, checkWorkerOptions } from './options/worker.js';
export type { ReadRouting, ReplicaState, ReplicaStatus } from './drivers/contract.js';

/**
 * A Kysely database on PostgreSQL, migrated.
 *
 * - A URL or a `pg.PoolConfig`: a Pool is created with safe defaults (every wait on the database
 *   bounded by `maxWaitMs`, 5 s; int8 parsed as bigint for this pool only, never through pg's
 *   global type parsers) and `db.destroy()` ends it. Every statement has a 5 s timeout (the
 *   config's `statement_timeout` to change it, 0 for none), kept on the client side by the driver (the connection of a statement
 *   that timed out is destroyed), and by PostgreSQL on creates; a startup parameter only where the
 *   server takes it (`sessionStatementTimeout`), so a pooled URL works as it is.
 * - A `pg.Pool` you created: it stays yours (its parsers and settings are untouched, nothing is
 *   named on it; rows are normalised in our repositories) and `db.destroy()` does not end it.
 * - A libpq multi-host URL (`postgres://u:p@h1:5432,h2:5433,h3/db?target_session_attrs=read-write`,
 *   also `load_balance_hosts=random`): a pool per host, each new connection on the first host that
 *   fits, so the store follows the primary through a failover (docs/operations.md, "High availability").
 *
 * @example
 * ```ts
 * import { createPostgresDatabase } from 'petstore-router/pg'
 * const db = await createPostgresDatabase(process.env.DATABASE_URL!)
 * // A transaction-mode pooler that refuses named statements, known in advance:
 * const pooled = await createPostgresDatabase(process.env.POOLED_URL!, { preparedStatements: false })
 * // A Patroni cluster: writes on its primary, reads on its standbys, whichever they are now:
 * const ha = await createPostgresDatabase('postgres://app:pw@pg1,pg2,pg3/petstore?target_session_attrs=read-write', {
 *   readReplicas: ['postgres://app:pw@pg1,pg2,pg3/petstore?target_session_attrs=standby'],
 * })
 * ```
 */
export function createPostgresDatabase(source: PostgresSource, options: PostgresDatabaseOptions = {}): Promise<Kysely<Database>> {
  checkPostgresArguments(source, options, isPgPool); // synchronously: a wrong source throws here, before any connection
  return openPostgresDatabase(source, options);
}

async function openPostgresDatabase(source: PostgresSource, options: PostgresDatabaseOptions): Promise<Kysely<Database>> {
  const db = await openPostgres<Database>(source, options);
  return options.migrate === false ? db : migrateOrDestroy(db);
}
