import type pg from 'pg';
import { sha256Hex } from '../../http/sha256.js';
import type { Kysely } from 'kysely';
import { contractOf } from '../database.js';
import type { PetStoreDatabase, PreparedStatement, ReadRouting, ReadSide } from '../contract.js';
import { type Lend, lendClient } from './pool.js';
import { openPools } from './host-set.js';
import { readSide } from './read-dialect.js';
import { type Primary, ReplicaSet, type ReplicaSettings } from './replicas.js';

/**
 * The primary's current WAL position: a function call, no table read. Prepared like the store's
 * statements (named by a hash of its text where naming is on, rows as arrays).
 */
const POSITION_SQL = 'select pg_current_wal_lsn()::text';
const POSITION: PreparedStatement = { name: `petstore_${sha256Hex(POSITION_SQL).slice(0, 32)}`, sql: POSITION_SQL };

/** The read replicas of a database created by createPostgresDatabase, wired to its primary. */
export interface ReadReplicas<DB> {
  readonly side: ReadSide<DB>;
  /** Stops the probe and ends the replicas' pools (the primary's `db.destroy()`). */
  close(): Promise<void>;
}

/**
 * Read replicas of the primary at `config`, whose pool lends by `lend`; undefined when there are
 * none. The probe starts at once (an unref'd timer; its connections never keep a process alive).
 */
export function withReadReplicas<DB>(
  sources: ReadonlyArray<string | pg.PoolConfig>,
  config: pg.PoolConfig,
  lend: Lend,
  settings: ReplicaSettings,
): ReadReplicas<DB> | undefined {
  if (sources.length === 0) return undefined;
  // The probe's own connection to the primary: a query every few seconds on the primary's pool
  // would keep its clients from ever idling out, and so a process from exiting.
  const probe = openPools({ ...config, max: 1, allowExitOnIdle: true }, { naming: false, deadlines: undefined }, 'source');
  const onPrimary = (sql: string, parameters: readonly unknown[], prepared: PreparedStatement | undefined): Promise<unknown[]> =>
    new Promise<unknown[]>((resolve, reject) => {
      lend((lendError, client) => {
        if (lendError || client === undefined) return reject(lendError ?? new Error('petstore-router: the pool lent no client'));
        const done = (error: Error | null | undefined, rows: unknown[] | undefined) => {
          client.release();
          if (error) reject(error);
          else resolve(rows!);
        };
        if (prepared !== undefined) client.sendPrepared(prepared, parameters as unknown[], (error, result) => done(error, result?.rows));
        else {
          client.query<unknown>(sql, parameters).then(
            (result) => done(undefined, result.rows),
            (error: Error) => done(error, undefined),
          );
        }
      });
    });
  const primary: Primary = {
    position: () => onPrimary(POSITION_SQL, [], POSITION).then((rows) => (rows[0] as unknown[])[0] as string),
    probePosition: () =>
      lendClient(probe.lend).then((client) =>
        client.send<pg.QueryResult<{ lsn: string }>>({ text: `${POSITION_SQL} as lsn` }).then(
          ({ rows }) => (client.release(), rows[0]!.lsn),
          (error: unknown) => {
            client.release(true);
            throw error;
          },
        ),
      ),
    read: onPrimary,
    close: () => probe.end(),
  };
  const replicas = new ReplicaSet(sources, primary, settings);
  replicas.start();
  return { side: readSide<DB>(replicas), close: () => replicas.close() };
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
export function readRouting<DB>(db: Kysely<DB> | PetStoreDatabase<DB>): ReadRouting | undefined {
  return contractOf(db).reads?.routing();
}
