import type { AdapterBindings } from '../bindings.js';
import { ApiError, ErrorCode } from '../http/errors.js';

/** Load shedding of one store (option `concurrency`): a bound on the requests it serves at once. */
export interface ConcurrencyOptions {
  /**
   * The most requests this store serves at once. One more is answered at once with 503, Error code
   * `overloaded` and `Retry-After`, before its body is read or its key checked. `GET {basePath}/health`
   * is never refused nor counted. See docs/operations.md, "Load shedding", for choosing it.
   */
  limit: number;
  /**
   * The `Retry-After` of a refused request, in seconds.
   * @default 1
   */
  retryAfterSeconds?: number;
  /** Called once per refused request (for a counter); it must be cheap and must not throw. */
  onShed?: (request: Request) => void;
}

/** A store's request handler, as the adapter calls it. */
export type Handle = (request: Request, bindings: AdapterBindings | undefined) => Promise<Response>;

/** Seconds a refused client should wait: work in flight ends within milliseconds, so one second. */
const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** Checks the option at creation: a wrong value names the option and what to pass. */
export function checkConcurrency(
  options: ConcurrencyOptions,
): Required<Omit<ConcurrencyOptions, 'onShed'>> & Pick<ConcurrencyOptions, 'onShed'> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('petstore-router: options.concurrency must be an object such as { limit: 40 }');
  }
  const { limit, retryAfterSeconds = DEFAULT_RETRY_AFTER_SECONDS, onShed } = options;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new TypeError(`petstore-router: options.concurrency.limit must be a positive integer, got ${String(limit)}`);
  }
  if (!Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 0) {
    throw new TypeError(
      `petstore-router: options.concurrency.retryAfterSeconds must be a whole number of seconds, got ${String(retryAfterSeconds)}`,
    );
  }
  if (onShed !== undefined && typeof onShed !== 'function')
    throw new TypeError('petstore-router: options.concurrency.onShed must be a function');
  return { limit, retryAfterSeconds, onShed };
}

/**
 * Wraps `next` with a counter of requests in flight. Under the limit a request is counted and
 * passed on (the count drops when its response is built); at the limit it is refused by
 * `refuse` with the `overloaded` error, unless `isExempt` (health), which passes uncounted. The
 * fast path is one comparison and one increment: the URL is looked at only when refusing.
 */
export function shedding(
  options: ConcurrencyOptions,
  next: Handle,
  isExempt: (request: Request, bindings: AdapterBindings | undefined) => boolean,
  refuse: (request: Request, bindings: AdapterBindings | undefined, error: ApiError) => Response,
): Handle {
  const { limit, retryAfterSeconds, onShed } = checkConcurrency(options);
  const overloaded = new ApiError(503, ErrorCode.overloaded, 'the server is at capacity, retry after Retry-After seconds', undefined, {
    'retry-after': String(retryAfterSeconds),
  });
  let inFlight = 0;
  const leave = () => void inFlight--;
  return (request, bindings) => {
    if (inFlight >= limit) {
      if (isExempt(request, bindings)) return next(request, bindings);
      onShed?.(request);
      return Promise.resolve(refuse(request, bindings, overloaded));
    }
    inFlight++;
    let served: Promise<Response>;
    try {
      served = next(request, bindings);
    } catch (error) {
      inFlight--;
      throw error;
    }
    served.then(leave, leave);
    return served;
  };
}
