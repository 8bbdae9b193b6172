import type { Kysely } from 'kysely';
import type { StatementRunner } from './statements.js';

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
 * The read side of a database a driver created with read replicas: a Kysely and a statement runner
 * for reads only (each read learns the primary's WAL position and runs on a replica that has
 * replayed it, else on the primary), and the replicas' state.
 */
export interface ReadSide<DB> {
  /** Reads only: no transaction, no write. */
  readonly db: Kysely<DB>;
  readonly statements: StatementRunner;
  routing(): ReadRouting;
}

/** A database object whose driver routes reads to replicas. */
export interface DatabaseWithReadSide<DB> extends Kysely<DB> {
  readonly reads: ReadSide<DB> | undefined;
}

/** The read side `db` carries, if it is a database object of ours with read replicas. */
export function readSideOf<DB>(db: Kysely<DB>): ReadSide<DB> | undefined {
  return (db as unknown as Partial<DatabaseWithReadSide<DB>>).reads;
}
