// The database contract: everything the store uses of a driver, in one typed object (as Kysely's
// `Dialect` says what a dialect gives Kysely). createPetStore reads it once, at creation.
import type { Kysely } from 'kysely';

/**
 * One of the store's own statements as a driver receives it: its SQL text and a name derived from
 * that text alone (one name means one text in every process and on every backend a pooler lends).
 */
export interface PreparedStatement {
  readonly name: string;
  readonly sql: string;
  /**
   * A write sent outside any transaction (a create): a driver that bounds statements has the
   * server itself end it at that bound, so a timeout means nothing was stored (`stored: 'no'`).
   */
  readonly write?: boolean;
}

/**
 * Sends one of the store's statements outside any transaction, faster than Kysely's executor, and
 * resolves with `map` applied to its rows as arrays in the statement's column order (a throw of
 * `map` is the promise's rejection: storage checks rows there).
 */
export interface StatementRunner {
  run<R>(statement: PreparedStatement, parameters: readonly unknown[], map: (rows: unknown[][]) => R): Promise<R>;
}

/** Where a replica stands, as the last read or probe of it found it. */
export type ReplicaState = 'up' | 'down' | 'lagging';

/** One read replica as the store reports it (health checks, metrics). */
export interface ReplicaStatus {
  /** `host:port/database` of the replica (never its user or password). */
  readonly name: string;
  /** `up`: reads may run on it; `down` (unreachable, refused, not a standby) and `lagging` (behind by more than the bound): skipped. */
  readonly state: ReplicaState;
  /** Why it is skipped, for people (no host, SQL or error text); undefined while `up`. */
  readonly reason: string | undefined;
  /** How long it took to replay the primary's position at the last probe, in milliseconds (0: caught up); undefined when unknown. */
  readonly lagMs: number | undefined;
  /** Reads it answered. */
  readonly reads: number;
  /** Reads it declined because it had not yet replayed the primary's position (they ran on the primary). */
  readonly behind: number;
  /** Reads that failed on it (they ran on the primary). */
  readonly failures: number;
}

/** How the reads of one database were routed so far. */
export interface ReadRouting {
  /** Reads answered by the primary: no replica usable, the replica behind or failing. */
  readonly primaryReads: number;
  readonly replicas: readonly ReplicaStatus[];
}

/**
 * Where single reads may run. The read side alone decides which server answers a read and from
 * which position (today: a replica that has replayed the primary's position as it was when the
 * read arrived, else the primary); the store only promises it sends reads here and nothing else.
 */
export interface ReadSide<DB> {
  /** Single reads only: no transaction, no write. */
  readonly db: Kysely<DB>;
  readonly statements: StatementRunner;
  /** The replicas' state and where reads went, for health checks and metrics. */
  routing(): ReadRouting;
}

/**
 * What a failed database call means for the store and its client:
 * - `unavailable`: the database could not be reached or refused the work (connect refused, shut
 *   down, too many connections); the statement did not run.
 * - `login_refused`: the server refused the credentials (a password or pg_hba.conf an operator fixes).
 * - `timeout`: a wait ran to its bound (a connection not lent in time, a statement not answered).
 * - `outcome_unknown`: the connection was lost after the statement was sent.
 * - `not_primary`: the server is not (or no longer) a primary: it refused a write.
 * - `not_migrated`: our tables (or the store's schema) are missing or behind.
 * - `closed`: the database was closed under the store.
 */
/**
 * How long past the server's own bound the client waits for its answer (57014, or the rows)
 * before it gives up on the connection: the answer says what happened, so the client waits for it
 * a little; only a server that says nothing by then leaves the outcome unknown.
 */
export const SERVER_ANSWER_GRACE_MS = 1_000;

export type DatabaseErrorKind = 'unavailable' | 'login_refused' | 'timeout' | 'outcome_unknown' | 'not_primary' | 'not_migrated' | 'closed';

/** A classified database error: its kind, and whether what was sent may have been stored. */
export interface DatabaseFailure {
  readonly kind: DatabaseErrorKind;
  /**
   * `no`: nothing of the statement is stored (never sent, refused, or ended by the server);
   * `maybe`: sent and never answered, so it may have committed.
   */
  readonly stored: 'no' | 'maybe';
}

/**
 * The contract: what the store uses of a database. `petstore-router/pg` and `/pglite` return a
 * `DriverKysely` (drivers/database.ts), which is one; a Kysely of your own is its minimal form
 * (`contractOf`, same file).
 *
 * @example
 * ```ts
 * const db = await createPostgresDatabase(url) // a Kysely that is also a PetStoreDatabase
 * createPetStore({ db, keys })
 * ```
 */
export interface PetStoreDatabase<DB> {
  /** The primary: every write and transaction, and every read when there is no read side. */
  readonly kysely: Kysely<DB>;
  /** Runs the store's own statements faster than Kysely's executor; absent: Kysely runs them. */
  readonly statements: StatementRunner | undefined;
  /** Where single reads may run (read replicas); absent: on `kysely`. */
  readonly reads: ReadSide<DB> | undefined;
  /**
   * The longest a request waits on this database in any one phase (the driver's partition bound,
   * `maxWaitMs` of `createPostgresDatabase`); the store's own waits for it keep to it (a create
   * waiting for a batch). Absent: 5 s.
   */
  readonly maxWaitMs?: number | undefined;
  /** What an error of this database means; undefined for any other error (a bug, a bad query). */
  classify(error: unknown): DatabaseFailure | undefined;
  /** Closes what the driver opened (pools, replicas, a PGlite it made); a caller's own pool or PGlite stays open. */
  close(): Promise<void>;
}
