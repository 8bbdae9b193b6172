// The pg driver: a Kysely on a pool of ours (with its statement runner) or on a caller's pool.
import { type Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { DriverKysely } from '../database.js';
import { borrowedPool, statementPool } from './pool.js';
import { openPools } from './host-set.js';
import { poolStatementRunner } from './pool-runner.js';
import { DEFAULT_MAX_WAIT_MS, boundConfig } from './partition.js';
import { ServerBound } from './server-bound.js';
import { takesSessionBound, withSessionBound } from './session-bound.js';
import { StatementDeadlines } from './timeout.js';
import { withReadReplicas } from './with-replicas.js';
import { hostList } from '../../options/hosts-url.js';

/** What `createPostgresDatabase` connects to: a URL, a pool config, or a `pg.Pool` you own. */
export type PostgresSource = string | pg.PoolConfig | pg.Pool;

/** A read replica: a URL or a pool config (one server each). */
export type ReplicaSource = string | pg.PoolConfig;

/** The driver's options (checked by `createPostgresDatabase`). */
export interface OpenOptions {
  preparedStatements?: boolean;
  sessionStatementTimeout?: boolean;
  maxWaitMs?: number;
  readReplicas?: readonly ReplicaSource[];
  maxReplicaLagMs?: number;
}

const DEFAULT_MAX_REPLICA_LAG_MS = 1_000;

/** A Pool of the pg loaded here (a caller's, used as it is); options/pg.ts asks this when checking the source. */
export function isPgPool(value: unknown): value is pg.Pool {
  return value instanceof pg.Pool;
}

/**
 * The database on `source`, unmigrated: a pool of ours (safe defaults, the statement timeout, a
 * statement runner, read replicas) for a URL or config, a borrowed view for a caller's `pg.Pool`
 * (Kysely runs every statement; `destroy()` leaves the pool open). `destroy()` ends a pool of ours
 * (and the replicas') even if only the runner used it.
 */
export async function openPostgres<DB>(source: PostgresSource, options: OpenOptions): Promise<Kysely<DB>> {
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS; // options checked by options/pg.ts
  if (source instanceof pg.Pool) {
    return new DriverKysely<DB>({ dialect: new PostgresDialect({ pool: borrowedPool(source) }) });
  }
  const { statement_timeout: timeout, ...config } = typeof source === 'string' ? { connectionString: source } : source;
  // The statement timeout is the statement part of the partition bound unless the config sets one.
  const timeoutMs = timeout === false ? 0 : (timeout ?? maxWaitMs);
  const deadlines = timeoutMs > 0 ? new StatementDeadlines(timeoutMs) : undefined;
  const bounded = { ...boundConfig(maxWaitMs), ...config };
  // The store's writes are ended by the server itself at the same bound (server-bound.ts): as the
  // session's setting where a single host's connections take it (session-bound.ts), else per write.
  const inSession =
    timeoutMs > 0 && options.sessionStatementTimeout !== false && singleHost(config) && (await takesSessionBound(bounded, timeoutMs));
  const writes = timeoutMs > 0 ? new ServerBound(timeoutMs, inSession) : undefined;
  const naming = options.preparedStatements !== false;
  const pools = openPools(inSession ? withSessionBound(bounded, timeoutMs) : bounded, { naming, deadlines, writes }, 'source');
  const lend = pools.lend;
  const kyselyPool = statementPool(pools, lend, deadlines, writes);
  const replicas = withReadReplicas<DB>(options.readReplicas ?? [], config, lend, {
    maxLagMs: options.maxReplicaLagMs ?? DEFAULT_MAX_REPLICA_LAG_MS,
    statementTimeoutMs: timeoutMs,
  });
  const end = replicas === undefined ? () => kyselyPool.end() : () => replicas.close().then(() => kyselyPool.end());
  return new DriverKysely<DB>(
    { dialect: new PostgresDialect({ pool: kyselyPool }) },
    { statements: poolStatementRunner(lend), reads: replicas?.side, maxWaitMs, end },
  );
}

/** A plain URL or config: the hosts of a multi-host URL may differ in what they take, so those keep the bound per write. */
function singleHost(config: pg.PoolConfig): boolean {
  return config.connectionString === undefined || hostList(config.connectionString, 'source') === undefined;
}
