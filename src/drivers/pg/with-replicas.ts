import { CompiledQuery, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from '../../storage/database.js';
import { OWN_STATEMENT_MARK, registerOwnStatement } from '../own-statements.js';
import { type ReadRouting, attachReadView, readViewOf } from '../read-view.js';
import { type Lend, ownPool } from './pool.js';
import { readView } from './read-dialect.js';
import { type Primary, ReplicaSet, type ReplicaSettings } from './replicas.js';

/**
 * The primary's current WAL position: a function call, no table read. One of our own statements
 * (own-statements.ts), so it is named where naming is on and answers an array row.
 */
const POSITION_SQL = `${OWN_STATEMENT_MARK}select pg_current_wal_lsn()::text`;
registerOwnStatement(POSITION_SQL);

/** The read replicas of a database created by createPostgresDatabase, wired to its primary. */
export interface ReadReplicas {
  /** Gives `db` (the primary's Kysely) its read side. */
  attach(db: Kysely<Database>): void;
  /** Starts the probe; called when the primary's pool is first used, so that `db.destroy()` stops it. */
  start(): void;
  close(): Promise<void>;
}

/** Read replicas of the primary at `config`, whose pool lends by `lend`; undefined when there are none. */
export function withReadReplicas(
  sources: ReadonlyArray<string | pg.PoolConfig>,
  config: pg.PoolConfig,
  lend: Lend,
  settings: ReplicaSettings,
): ReadReplicas | undefined {
  if (sources.length === 0) return undefined;
  // The probe's own connection to the primary: a query every few seconds on the primary's pool
  // would keep its clients from ever idling out, and so a process from exiting.
  const probe = ownPool({ ...config, max: 1, allowExitOnIdle: true });
  let db: Kysely<Database> | undefined;
  let opened = false;
  // Until Kysely has opened its driver, a read goes through it: only an opened driver is ended by
  // `db.destroy()` (which then stops the probe and ends the replicas' pools), and opening it starts
  // the probe. From then on, the pool's lending directly (the same clients, fewer layers).
  const onPrimary = (sql: string, parameters: readonly unknown[]): Promise<unknown[]> =>
    !opened
      ? db!.executeQuery<unknown>(CompiledQuery.raw(sql, [...parameters])).then(({ rows }) => rows)
      : new Promise<unknown[]>((resolve, reject) => {
          lend((lendError, client) => {
            if (lendError || client === undefined) return reject(lendError ?? new Error('petstore-router: the pool lent no client'));
            client.send<unknown>(sql, parameters as unknown[], (error, result) => {
              client.release();
              if (error) reject(error);
              else resolve(result!.rows);
            });
          });
        });
  const primary: Primary = {
    position: () => onPrimary(POSITION_SQL, []).then((rows) => (rows[0] as unknown[])[0] as string),
    probePosition: () => probe.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn').then(({ rows }) => rows[0]!.lsn),
    read: onPrimary,
    close: () => probe.end(),
  };
  const replicas = new ReplicaSet(sources, primary, settings);
  return {
    attach: (primaryDb) => {
      db = primaryDb;
      attachReadView(primaryDb, readView(replicas));
    },
    start: () => {
      opened = true;
      replicas.start();
    },
    close: () => replicas.close(),
  };
}

/**
 * How the reads of `db` were routed so far: per replica its state, lag and reads, and the reads
 * the primary answered; undefined for a database without read replicas. For metrics and checks.
 *
 * @example
 * ```ts
 * import { createPostgresDatabase, readRouting } from 'petstore-router/pg'
 * const db = await createPostgresDatabase(url, { readReplicas: [replicaUrl] })
 * console.log(readRouting(db)?.replicas.map((r) => `${r.name} ${r.state} ${r.reads}`))
 * ```
 */
export function readRouting(db: Kysely<Database>): ReadRouting | undefined {
  return readViewOf(db)?.routing();
}
