import type { Repositories } from '../storage/repositories.js';
import { ApiError, ErrorCode } from '../errors.js';
import { keyIdOfPrincipal } from '../http/key-id.js';
import { checkRateLimit } from '../options/rate-limit.js';

/** The `rateLimit` option of `createPetStore`: at most `limit` requests per key per window. */
export interface RateLimitOptions {
  /** Requests each API key may make in one window (an integer, at least 1). */
  limit: number;
  /** Length of the fixed window in seconds (an integer, at least 1). */
  windowSeconds: number;
}

/**
 * Counts one authenticated request of the principal (the hex SHA-256 of its key) and returns the
 * `RateLimit-Policy` and `RateLimit` fields for its answer, or throws the 429.
 */
export type RateLimiter = (principal: string) => Promise<Record<string, string>>;

/**
 * A fixed-window limiter per key id whose counts live in the database (`petstore_rate_limits`),
 * so every process on one database shares them. Headers follow draft-ietf-httpapi-ratelimit-
 * headers-11: `RateLimit-Policy: "default";q=LIMIT;w=WINDOW` and `RateLimit: "default";r=REMAINING;
 * t=SECONDS`, `t` being the seconds until the window ends; over the limit, a 429 with `Retry-After`
 * equal to `t`.
 */
export function createRateLimiter(options: RateLimitOptions, counts: Repositories['rateLimits'], now: () => Date): RateLimiter {
  const { limit, windowSeconds } = checkRateLimit(options);
  const policy = `"default";q=${limit};w=${windowSeconds}`;
  return async (principal) => {
    const seconds = now().getTime() / 1000;
    const { hits, windowStart } = await counts.count(keyIdOfPrincipal(principal)!, Math.floor(seconds / windowSeconds) * windowSeconds);
    // At least 1: a window ending right now still means "not before the next second".
    const reset = Math.max(1, Math.ceil(windowStart + windowSeconds - seconds));
    const headers = { 'ratelimit-policy': policy, ratelimit: `"default";r=${Math.max(0, limit - hits)};t=${reset}` };
    if (hits <= limit) return headers;
    const message = `rate limit of ${limit} requests per ${windowSeconds} s reached; retry in ${reset} s`;
    throw new ApiError({ status: 429, code: ErrorCode.rateLimited, message, headers: { ...headers, 'retry-after': String(reset) } });
  };
}
