import { type CancelTarget, sendCancelRequest } from './cancel.js';

/** Extra time a cancelled statement gets to report its cancellation before its connection is dropped. */
const CANCEL_GRACE_MS = 2_000;

/** A client as the watchdog sees it: when its running statement started, and how to act on it. */
export interface Watched {
  /** `Date.now()` when the running statement was sent; 0 when none runs. */
  readonly startedAt: number;
  /** The backend key data to cancel with. */
  readonly cancelTarget: CancelTarget;
  /** Drops the connection (the pool discards it); its statement then fails as "Connection terminated". */
  abandon(): void;
}

/**
 * The statement timeout of one pool, in a form that holds behind a transaction-mode pooler (where
 * a startup parameter is refused and a session `SET statement_timeout` lands on whichever backend
 * serves it). Clients register while a statement runs; a timer scans them a few times per timeout:
 * a statement past the timeout is cancelled with PostgreSQL's CancelRequest (the database stops
 * working on it and reports 57014, answered 503); one still running a grace period later (the
 * cancel could not be delivered) has its connection dropped, so no request waits on it and the
 * pool never lends it out again. One timer per pool, not one per statement.
 */
export class Watchdog {
  readonly #running = new Set<Watched>();
  readonly #cancelled = new WeakMap<Watched, number>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(readonly timeoutMs: number) {}

  start(client: Watched): void {
    this.#running.add(client);
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.#scan(), Math.max(10, Math.min(1_000, this.timeoutMs / 4)));
    // Workers before compatibility date 2026-02-10 return a number here: never assume a timer object.
    if (typeof this.#timer === 'object') this.#timer.unref();
  }

  stop(client: Watched): void {
    this.#running.delete(client);
  }

  /** Stops the timer (the pool is ending). */
  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #scan(): void {
    const now = Date.now();
    for (const client of this.#running) {
      const started = client.startedAt;
      if (started === 0 || now - started < this.timeoutMs) continue;
      const cancelledAt = this.#cancelled.get(client);
      if (cancelledAt === undefined || cancelledAt < started) {
        this.#cancelled.set(client, now);
        sendCancelRequest(client.cancelTarget);
      } else if (now - cancelledAt >= CANCEL_GRACE_MS) {
        this.#running.delete(client);
        client.abandon();
      }
    }
  }
}
