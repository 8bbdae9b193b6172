import type pg from 'pg';
import type { PreparedStatement } from '../contract.js';
import type { ReadRouting } from '../contract.js';
import { hostList } from '../../options/hosts-url.js';
import { Replica } from './replica.js';
import { ReplicaHealth } from './replica-health.js';
import { PrimaryPosition, checkedLsn } from './wal-position.js';
import { readWithoutPrimary } from './no-primary.js';
import { classifyDatabaseError } from '../classify.js';

/** The primary did not answer: unreachable, timed out, lost, or no longer a primary (not a bug, not a missing table). */
function primaryAway(error: unknown): boolean {
  const kind = classifyDatabaseError(error)?.kind;
  return kind === 'unavailable' || kind === 'timeout' || kind === 'outcome_unknown' || kind === 'not_primary';
}

/** A replica source, one per host of a libpq multi-host URL (hosts-url.ts). */
function eachHost(source: string | pg.PoolConfig): Array<string | pg.PoolConfig> {
  const url = typeof source === 'string' ? source : source.connectionString;
  const list = url === undefined ? undefined : hostList(url, 'readReplicas');
  if (list === undefined) return [source];
  return list.urls.map((one) => (typeof source === 'string' ? one : { ...source, connectionString: one }));
}

/** How reads reach the primary: its position, and a read there (rows as the primary's pool gives them). */
export interface Primary {
  /** `pg_current_wal_lsn()` as text, read by a query sent when called. */
  position(): Promise<string>;
  /** The same for the probe, on a connection that does not keep the process alive while idle. */
  probePosition(): Promise<string>;
  /** A read on the primary: `prepared` (rows as arrays) or any other query (rows as objects). */
  read(sql: string, parameters: readonly unknown[], prepared: PreparedStatement | undefined): Promise<unknown[]>;
  /** Ends what the replicas opened on the primary (the probe's connection). */
  close(): Promise<void>;
}

/** Settings of the read replicas of one database. */
export interface ReplicaSettings {
  /** A replica whose replay is behind by more than this is skipped until it catches up. */
  maxLagMs: number;
  /** How long a replica has to answer one read (0: no bound) before the read runs on the primary. */
  statementTimeoutMs: number;
}

/**
 * The read replicas of one database and the routing of its reads: a read learns the primary's
 * WAL position (a query sent after the read arrived, wal-position.ts) and runs on the next replica
 * that is `up` if that replica has replayed the position, else on the primary. Whatever a replica
 * does (behind, down, refusing, failing), the read is answered by the primary: never an error of
 * the replica's. Nothing here is needed for read-your-writes beyond the two positions, so every
 * process sharing the primary and replicas reads what any of them wrote.
 */
export class ReplicaSet {
  readonly #replicas: Replica[];
  readonly #position: PrimaryPosition;
  readonly #health: ReplicaHealth;
  #next = 0;
  #primaryReads = 0;

  constructor(
    sources: ReadonlyArray<string | pg.PoolConfig>,
    private readonly primary: Primary,
    settings: ReplicaSettings,
  ) {
    // A multi-host URL is one replica per host: each is read from while the probe finds it a standby.
    this.#replicas = sources.flatMap(eachHost).map((source) => new Replica(source, settings.statementTimeoutMs));
    this.#position = new PrimaryPosition(() => primary.position());
    this.#health = new ReplicaHealth(
      this.#replicas,
      () =>
        primary.probePosition().then((lsn) => {
          this.#position.note(checkedLsn(lsn));
          return lsn;
        }),
      settings.maxLagMs,
    );
  }

  /** Starts the background probe (the first probe at once). */
  start(): void {
    this.#health.start();
  }

  /** Runs one read and resolves with its rows: arrays for one of the store's prepared statements, else objects. */
  async read(sql: string, parameters: readonly unknown[], prepared: PreparedStatement | undefined): Promise<unknown[]> {
    const replica = this.#pick();
    if (replica !== undefined) {
      let lsn: string;
      try {
        lsn = await this.#position.after();
      } catch (error) {
        return this.#withoutPrimary(error, sql, parameters, prepared);
      }
      try {
        const answer = await replica.read(lsn, sql, parameters, prepared !== undefined);
        if (answer !== undefined) {
          replica.reads++;
          return answer.rows;
        }
      } catch (error) {
        replica.failed(error);
      }
    }
    this.#primaryReads++;
    return this.primary.read(sql, parameters, prepared).catch((error: unknown) => this.#withoutPrimary(error, sql, parameters, prepared));
  }

  /** The primary did not answer (`error`): unless it is away, the error; else a standby's answer (no-primary.ts), or the error. */
  async #withoutPrimary(
    error: unknown,
    sql: string,
    parameters: readonly unknown[],
    prepared: PreparedStatement | undefined,
  ): Promise<unknown[]> {
    if (!primaryAway(error)) throw error;
    const rows = await readWithoutPrimary(this.#replicas, this.#position.latest, async (replica, state) => {
      const arrays = prepared !== undefined;
      const answer =
        state === 'primary'
          ? { rows: await replica.readAnyway(sql, parameters, arrays) }
          : await replica.read(state.lsn, sql, parameters, arrays);
      if (answer !== undefined) replica.reads++;
      return answer?.rows;
    });
    if (rows === undefined) throw error;
    return rows;
  }

  routing(): ReadRouting {
    return { primaryReads: this.#primaryReads, replicas: this.#replicas.map((replica) => replica.status) };
  }

  /** Stops the probe and ends the replicas' pools. */
  async close(): Promise<void> {
    this.#health.stop();
    await Promise.all([...this.#replicas.map((replica) => replica.end()), this.primary.close()]);
  }

  /** The next replica that is `up`, round robin; undefined when none is. */
  #pick(): Replica | undefined {
    const count = this.#replicas.length;
    for (let i = 0; i < count; i++) {
      const replica = this.#replicas[(this.#next + i) % count]!;
      if (replica.state === 'up') {
        this.#next = (this.#next + i + 1) % count;
        return replica;
      }
    }
    return undefined;
  }
}
