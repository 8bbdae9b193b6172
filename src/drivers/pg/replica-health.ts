import type { Replica } from './replica.js';

/** How often every replica is checked: one found well is taken back within this (plus the lag bound). */
export const PROBE_INTERVAL_MS = 2_000;
/** How often a probe asks a replica that is behind whether it has caught up. */
const POLL_MS = 25;

/**
 * The background check of the replicas (one timer for all of them, unref'd, so it never keeps a
 * process alive; stopped when the database is destroyed). Each probe reads the primary's WAL
 * position, then asks each replica until it has replayed that position: the time it took is its
 * lag. A replica that answers within the bound is `up` (taken back if it was skipped); one that
 * takes longer is `lagging`; one that fails or is not a standby is `down`. While the primary
 * cannot be reached, no verdict is given (reads fail on the primary anyway).
 */
export class ReplicaHealth {
  #timer: ReturnType<typeof setInterval> | undefined;
  #probing = false;
  #stopped = false;

  constructor(
    private readonly replicas: readonly Replica[],
    private readonly position: () => Promise<string>,
    private readonly maxLagMs: number,
  ) {}

  /** Probes now, then every {@link PROBE_INTERVAL_MS}. */
  start(): void {
    if (this.#timer !== undefined || this.#stopped) return;
    void this.probe();
    this.#timer = setInterval(() => void this.probe(), PROBE_INTERVAL_MS);
    this.#timer.unref?.();
  }

  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One probe of every replica (skipped while the previous one runs); never rejects. */
  async probe(): Promise<void> {
    if (this.#probing || this.#stopped) return;
    this.#probing = true;
    try {
      const started = Date.now();
      let lsn: string;
      try {
        lsn = await this.position();
      } catch {
        return;
      }
      await Promise.all(this.replicas.map((replica) => this.#probeOne(replica, lsn, started)));
    } finally {
      this.#probing = false;
    }
  }

  async #probeOne(replica: Replica, lsn: string, started: number): Promise<void> {
    try {
      for (let first = true; !this.#stopped; first = false) {
        const replayed = await replica.replayed(lsn);
        const elapsed = Date.now() - started;
        if (replayed === undefined) return replica.mark('down', 'not a standby (pg_is_in_recovery() is false)');
        if (replayed) {
          replica.lagMs = first ? 0 : elapsed;
          return replica.mark('up', undefined);
        }
        if (elapsed > this.maxLagMs) {
          replica.lagMs = elapsed;
          return replica.mark('lagging', 'replay behind the primary by more than the bound');
        }
        await new Promise<void>((resolve) => setTimeout(resolve, POLL_MS).unref?.());
      }
    } catch {
      replica.mark('down', 'unreachable or not answering');
    }
  }
}
