import { ApiError, ErrorCode } from '../errors.js';

/** The span of the counts the estimate reads: the last second or so, so it follows the load as it falls. */
const WINDOW_MS = 1_000;

/**
 * The `Retry-After` of a refusal: how long until the store expects room for the refused request,
 * from its counts of the last second or two (nothing older, so it falls back as load falls,
 * without a refusal to shrink it). Two readings, the larger wins:
 * - the queue: (waiting + 1) requests ahead of it, served at the rate answers were built;
 * - the crowd: refused per served request; clients that honour it come back, and each needs its
 *   turn, so with twice as many refused as served they need two seconds between them.
 * With no answer in the window to go by (a burst after quiet, or a database that answers nothing),
 * the least. Counting an answer is one increment: the clock is read only when refusing.
 */
export function retryAfterEstimate({
  retryAfterSeconds: least,
  maxRetryAfterSeconds: most,
}: {
  retryAfterSeconds: number;
  maxRetryAfterSeconds: number;
}) {
  const errors = new Map<number, ApiError>();
  let windowStart = performance.now();
  let served = 0;
  let refused = 0;
  let before = { served: 0, refused: 0, ms: 0 };

  /** Starts a new window when the current one is over; one more than a window old forgets it. */
  const roll = (now: number) => {
    const age = now - windowStart;
    if (age < WINDOW_MS) return;
    before = age < 2 * WINDOW_MS ? { served, refused, ms: age } : { served: 0, refused: 0, ms: 0 };
    served = 0;
    refused = 0;
    windowStart = now;
  };

  return {
    served(): void {
      served++;
    },
    refused(waiting: number): ApiError {
      const now = performance.now();
      roll(now);
      refused++;
      const answered = before.served + served;
      const ms = before.ms + (now - windowStart);
      let seconds = least;
      if (answered > 0 && ms > 0) {
        const queue = ((waiting + 1) * ms) / answered / 1_000;
        const crowd = (before.refused + refused) / answered;
        seconds = Math.min(most, Math.max(least, Math.ceil(Math.max(queue, crowd))));
      }
      let error = errors.get(seconds);
      if (error === undefined) {
        error = new ApiError({
          status: 503,
          code: ErrorCode.overloaded,
          message: 'the server is at capacity, retry after Retry-After seconds',
          headers: { 'retry-after': String(seconds) },
        });
        errors.set(seconds, error);
      }
      return error;
    },
  };
}
