import { ApiError, ErrorCode } from '../errors.js';

/** Load shedding of one store (option `concurrency`): a bound on the requests it serves at once. */
export interface ConcurrencyOptions {
  /**
   * The most requests this store serves at once. One more is answered at once with 503, Error code
   * `overloaded` and `Retry-After`, before its body is read or its key checked. `GET {basePath}/health`
   * is never refused nor counted. See docs/operations.md, "Load shedding", for choosing it.
   */
  limit: number;
  /**
   * The least `Retry-After` of a refused request, in seconds. While more than a quarter as many
   * requests are refused as served, the next refusals ask for proportionally longer (at most
   * `maxRetryAfterSeconds`), so clients that honour it come back no faster than they can be served.
   * @default 1
   */
  retryAfterSeconds?: number;
  /**
   * The most `Retry-After` of a refused request, in seconds.
   * @default 30
   */
  maxRetryAfterSeconds?: number;
  /** Called once per refused request (for a counter); it must be cheap and must not throw. */
  onShed?: (request: Request) => void;
}

/** A store's request handler, as the adapter calls it. */
export type Handle = (request: Request) => Promise<Response>;

/** Seconds a refused client should wait at least: work in flight ends within milliseconds, so one second. */
const DEFAULT_RETRY_AFTER_SECONDS = 1;
const DEFAULT_MAX_RETRY_AFTER_SECONDS = 30;
/** Refused per served request that the Retry-After aims at: refusals stay a small part of the work. */
const TARGET_REFUSED_PER_SERVED = 0.25;
/** How often the Retry-After is reconsidered, from the counts of the window before. */
const WINDOW_MS = 1_000;

type Checked = Required<Omit<ConcurrencyOptions, 'onShed'>> & Pick<ConcurrencyOptions, 'onShed'>;

/** Checks the option at creation: a wrong value names the option and what to pass. */
export function checkConcurrency(options: ConcurrencyOptions): Checked {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('petstore-router: options.concurrency must be an object such as { limit: 40 }');
  }
  const {
    limit,
    retryAfterSeconds = DEFAULT_RETRY_AFTER_SECONDS,
    maxRetryAfterSeconds = Math.max(retryAfterSeconds, DEFAULT_MAX_RETRY_AFTER_SECONDS),
    onShed,
  } = options;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new TypeError(`petstore-router: options.concurrency.limit must be a positive integer, got ${String(limit)}`);
  }
  if (!Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 1) {
    throw new TypeError(
      `petstore-router: options.concurrency.retryAfterSeconds must be a whole number of seconds, at least 1, got ${String(retryAfterSeconds)}`,
    );
  }
  if (!Number.isInteger(maxRetryAfterSeconds) || maxRetryAfterSeconds < retryAfterSeconds) {
    throw new TypeError(
      `petstore-router: options.concurrency.maxRetryAfterSeconds must be a whole number of seconds, at least retryAfterSeconds, got ${String(maxRetryAfterSeconds)}`,
    );
  }
  if (onShed !== undefined && typeof onShed !== 'function')
    throw new TypeError('petstore-router: options.concurrency.onShed must be a function');
  return { limit, retryAfterSeconds, maxRetryAfterSeconds, onShed };
}

/**
 * Wraps `next` with a counter of requests in flight. Under the limit a request is counted and
 * passed on (the count drops when its response is built); at the limit it is refused by
 * `refuse` with the `overloaded` error, unless `isExempt` (health), which passes uncounted. The
 * fast path is one comparison and two increments: the URL is looked at, and the Retry-After
 * reconsidered, only when refusing.
 */
export function shedding(
  options: ConcurrencyOptions,
  next: Handle,
  isExempt: (request: Request) => boolean,
  refuse: (request: Request, error: ApiError) => Response,
): Handle {
  const checked = checkConcurrency(options);
  const { limit, onShed } = checked;
  const retryAfter = retryAfterPolicy(checked);
  let inFlight = 0;
  const leave = () => void inFlight--;
  return (request) => {
    if (inFlight >= limit) {
      if (isExempt(request)) return next(request);
      onShed?.(request);
      return Promise.resolve(refuse(request, retryAfter.refused()));
    }
    inFlight++;
    retryAfter.served++;
    let served: Promise<Response>;
    try {
      served = next(request);
    } catch (error) {
      inFlight--;
      throw error;
    }
    served.then(leave, leave);
    return served;
  };
}

/**
 * The Retry-After of refusals. A client that honours it comes back after that many seconds, so
 * the refused traffic is about (clients refused) / Retry-After per second: with a fixed second and
 * a crowd of clients, answering refusals would crowd out the work. Each window, the ratio r of
 * refused to served requests of the window before sets the next one: above the target r*, the
 * returning traffic is (1 + r) times the served, so the Retry-After is scaled by (1 + r) / (1 + r*),
 * at most doubled per window (a burst at once must not send every client away for long); below
 * half the target, it shrinks by a second, back to the least.
 */
function retryAfterPolicy({ retryAfterSeconds: least, maxRetryAfterSeconds: most }: Checked) {
  const errors = new Map<number, ApiError>();
  const errorFor = (seconds: number) => {
    let error = errors.get(seconds);
    if (error === undefined) {
      error = new ApiError({
        status: 503,
        code: ErrorCode.overloaded,
        message: 'the server is at capacity, retry after Retry-After seconds',
        headers: {
          'retry-after': String(seconds),
        },
      });
      errors.set(seconds, error);
    }
    return error;
  };
  let seconds = least;
  let refused = 0;
  let windowStart = performance.now();
  const policy = {
    served: 0,
    refused(): ApiError {
      refused++;
      const now = performance.now();
      if (now - windowStart >= WINDOW_MS) {
        const ratio = refused / Math.max(1, policy.served);
        if (ratio > TARGET_REFUSED_PER_SERVED) {
          const wanted = Math.ceil((seconds * (1 + ratio)) / (1 + TARGET_REFUSED_PER_SERVED));
          seconds = Math.min(most, 2 * seconds, wanted);
        } else if (ratio < TARGET_REFUSED_PER_SERVED / 2) seconds = Math.max(least, seconds - 1);
        refused = 0;
        policy.served = 0;
        windowStart = now;
      }
      return errorFor(seconds);
    },
  };
  return policy;
}
