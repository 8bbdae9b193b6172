import pg from 'pg';
import { answeredByServer } from '../classify.js';
import type { ReplicaState, ReplicaStatus } from '../contract.js';
import { type Lend, lendClient, lender, ownPool } from './pool.js';
import type { StatementClient } from './statement-client.js';
import { StatementDeadlines } from './timeout.js';
import { caughtUp, checkSql, checkThenRead, readCommitted, statementResult } from './replica-read.js';
import { checkedLsn } from './wal-position.js';

/** How long a replica has to connect; past it the read runs on the primary. */
const CONNECT_TIMEOUT_MS = 2_000;

/** A standby's received WAL, or `primary` for a server of the list found promoted. */
export type WalState = { lsn: string } | 'primary';

/** A read on a replica: its rows, or undefined when the replica had not replayed the position. */
export type ReplicaAnswer = { rows: unknown[] } | undefined;

/**
 * One read replica: its pool (ours, created from its URL or config), its state and its counters.
 * Its statements are the check of the position and the read (replica-read.ts), never named (a
 * pooler in front of it may lend any backend), rows as arrays for the store's prepared statements and
 * as objects for anything else, as on the primary. Its clients are lent as the primary's are
 * (pool.ts), with the same statement timeout (timeout.ts).
 */
export class Replica {
  readonly name: string;
  state: ReplicaState = 'down';
  reason: string | undefined = 'not checked yet';
  lagMs: number | undefined;
  reads = 0;
  behind = 0;
  failures = 0;
  readonly #pool: pg.Pool;
  readonly #deadlines: StatementDeadlines | undefined;
  readonly #lend: Lend;

  constructor(source: string | pg.PoolConfig, statementTimeoutMs: number) {
    const config = typeof source === 'string' ? { connectionString: source } : source;
    this.name = replicaName(config);
    this.#pool = ownPool({
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      ...config,
      // The probe uses this pool every few seconds: idle, it must not keep the process alive.
      allowExitOnIdle: true,
    });
    // A client-side bound (nothing sent at connect, so a pooler in front accepts it): a replica
    // that stops answering costs a read this long, then the read runs on the primary.
    this.#deadlines = statementTimeoutMs > 0 ? new StatementDeadlines(statementTimeoutMs) : undefined;
    this.#lend = lender(this.#pool, { naming: false, deadlines: this.#deadlines });
  }

  get status(): ReplicaStatus {
    const { name, state, reason, lagMs, reads, behind, failures } = this;
    return { name, state, reason, lagMs, reads, behind, failures };
  }

  /**
   * Runs the read `sql` if this replica has replayed the primary's position `lsn`: one round trip
   * (the check and the read in one query, replica-read.ts) where the read can be written with
   * literals, else the check and then the read; either way the read's snapshot is taken after the
   * check. Rejects when the replica fails; the caller reads on the primary.
   */
  async read(lsn: string, sql: string, parameters: readonly unknown[], arrayRows: boolean): Promise<ReplicaAnswer> {
    const rowMode = arrayRows ? 'array' : undefined;
    return this.#using(async (client) => {
      const both = checkThenRead(lsn, sql, parameters);
      if (both !== undefined) {
        const results = await client.send<pg.QueryResult[]>({ text: both, rowMode } as pg.QueryConfig);
        if (!this.#passed(caughtUp(statementResult(results, 0)?.rows[0]))) return undefined;
        return { rows: statementResult(results, 1)!.rows };
      }
      const check = await client.send<pg.QueryResult[]>({ text: readCommitted(checkSql(lsn)), rowMode } as pg.QueryConfig);
      if (!this.#passed(caughtUp(statementResult(check, 0)?.rows[0]))) return undefined;
      const read = await client.send<pg.QueryResult>({ text: sql, values: parameters as unknown[], rowMode } as pg.QueryConfig);
      return { rows: read.rows };
    });
  }

  /**
   * Runs `work` on a client of this replica's pool (guarded, pool.ts: a replica stopping while the
   * client is out must not crash the process). A client whose statement failed or timed out is
   * dropped, not lent again.
   */
  async #using<T>(work: (client: StatementClient) => Promise<T>): Promise<T> {
    const client = await lendClient(this.#lend);
    let broken = false;
    try {
      return await work(client);
    } catch (error) {
      broken = true;
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /**
   * The check's verdict. Being behind one read's position is not lag past the bound (a replica a
   * few milliseconds behind a write just made is healthy): the probe measures that (replica-health.ts).
   */
  #passed(replayed: boolean): boolean {
    if (replayed) return true;
    this.behind++;
    return false;
  }

  /**
   * Records a failed read. Unless the replica itself answered with an ordinary SQL error (a
   * recovery conflict, say), it is unreachable, refusing or too slow: skipped from now on, until a
   * probe finds it well.
   */
  failed(error: unknown): void {
    this.failures++;
    if (!answeredByServer(error)) this.mark('down', 'unreachable or not answering');
  }

  mark(state: ReplicaState, reason: string | undefined): void {
    this.state = state;
    this.reason = state === 'up' ? undefined : reason;
  }

  /** The probe's query: has it replayed `lsn`; undefined for a server that is not a standby. */
  replayed(lsn: string): Promise<boolean | undefined> {
    return this.#using(async (client) => {
      const text = readCommitted(`${checkSql(lsn)}, pg_is_in_recovery() as standby`);
      const row = statementResult(await client.send<pg.QueryResult<{ standby: boolean }>[]>({ text }), 0)?.rows[0];
      return row?.standby === true ? caughtUp(row) : undefined;
    });
  }

  /**
   * For reads while no primary answers: the WAL this standby has received (flushed), or `primary`
   * when this server is no longer a standby (promoted: it has every write).
   */
  received(): Promise<WalState> {
    return this.#using(async (client) => {
      const text = readCommitted('select pg_is_in_recovery(), coalesce(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn())::text');
      const results = await client.send<pg.QueryArrayResult<[boolean, string | null]>[]>({ text, rowMode: 'array' } as pg.QueryConfig);
      const [standby, lsn] = statementResult(results, 0)?.rows[0] ?? [];
      return standby === true ? { lsn: checkedLsn(lsn) } : 'primary';
    });
  }

  /** A read with no check (on a server found promoted). */
  readAnyway(sql: string, parameters: readonly unknown[], arrayRows: boolean): Promise<unknown[]> {
    const rowMode = arrayRows ? 'array' : undefined;
    return this.#using(async (client) => {
      const read = await client.send<{ rows: unknown[] }>({ text: sql, values: parameters as unknown[], rowMode } as pg.QueryConfig);
      return read.rows;
    });
  }

  end(): Promise<void> {
    this.#deadlines?.close();
    return this.#pool.end();
  }
}

/** `host:port/database` of a replica's config, for status and metrics (never its credentials). */
function replicaName(config: pg.PoolConfig): string {
  if (config.connectionString !== undefined) {
    try {
      const url = new URL(config.connectionString);
      return `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname || '/'}`;
    } catch {
      return 'replica';
    }
  }
  return `${config.host ?? 'localhost'}:${config.port ?? 5432}/${config.database ?? ''}`;
}
