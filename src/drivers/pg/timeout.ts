/**
 * A statement of ours that can be timed out: when it started (performance.now()), and how to fail it.
 * {@link StatementClient} is one (statement-client.ts): one statement at a time per connection.
 */
export interface TimedStatement {
  sentAt: number;
  timedOut(error: StatementTimeoutError): void;
}

/** A statement that got no answer within the statement timeout; its connection is dropped. */
export class StatementTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`statement timeout: PostgreSQL did not answer within ${timeoutMs} ms`);
    this.name = 'StatementTimeoutError';
  }
}

/**
 * The statement timeout of a pool of ours, kept by the client: a statement with no answer
 * `timeoutMs` after it was sent fails with a {@link StatementTimeoutError} and its connection is
 * destroyed when released (pg-pool's documented `release(true)`), never lent again: the backend may
 * still be working on it, and pg would queue the next statement behind it. Nothing is sent to the
 * server, so it holds behind a transaction-mode pooler (which refuses a `statement_timeout` startup
 * parameter), like pg's own `query_timeout`.
 *
 * Why not pg's `query_timeout`: it arms and clears a timer per query, and that timer's closure
 * holds the query and its rows; under load those survive young-generation collections and the
 * server spent much of its CPU in the garbage collector (figures: docs/performance.md). Here one timer
 * per pool watches every statement: statements are kept in the order they started (a Set iterates
 * in insertion order), so the first is the oldest, and the timer is armed for its deadline only.
 * Idle, no timer stays armed past the last deadline; the timer never holds the process open
 * (`unref` where the runtime's timers have it: Workers' may be plain numbers).
 */
export class StatementDeadlines {
  readonly #timeoutMs: number;
  readonly #inFlight = new Set<TimedStatement>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** `statement` was sent now. */
  started(statement: TimedStatement): void {
    statement.sentAt = performance.now();
    this.#inFlight.add(statement);
    if (this.#timer === undefined && !this.#closed) this.#arm(this.#timeoutMs);
  }

  /** `statement` was answered (or failed): it no longer counts. */
  ended(statement: TimedStatement): void {
    this.#inFlight.delete(statement);
  }

  /** Stops watching (the pool ends): the timer is cleared. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(delayMs: number): void {
    const timer = setTimeout(this.#check, Math.max(1, Math.ceil(delayMs)));
    if (typeof timer === 'object' && typeof (timer as { unref?: unknown }).unref === 'function') (timer as { unref(): void }).unref();
    this.#timer = timer;
  }

  readonly #check = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    for (const statement of this.#inFlight) {
      const due = statement.sentAt + this.#timeoutMs;
      if (due > now) {
        if (!this.#closed) this.#arm(due - now);
        return;
      }
      this.#inFlight.delete(statement);
      statement.timedOut(new StatementTimeoutError(this.#timeoutMs));
    }
  };
}

/** pg's own error for a query past a `query_timeout` a caller set in its pool config. */
const PG_TIMEOUT_MESSAGE = 'Query read timeout';

/** Whether a query's error means its connection must not be lent again: it timed out, ours or pg's. */
export function mustDestroy(error: unknown): boolean {
  return error instanceof StatementTimeoutError || (error instanceof Error && error.message === PG_TIMEOUT_MESSAGE);
}
