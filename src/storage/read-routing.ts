// What the store reports of a database's read replicas (health checks, metrics); the pg driver
// fills it in (drivers/pg/replicas.ts).

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
  /** How far its replay was behind the primary at the last check, in milliseconds (0: caught up); undefined when unknown. */
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
