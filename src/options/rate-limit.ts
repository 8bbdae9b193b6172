// `rateLimit` of createPetStore: requests per key per fixed window.
import { checkOptionNames, isObject, optionError, wholeAtLeast } from './check.js';

const WHERE = 'createPetStore';

/** `rateLimit`, checked: at most `limit` requests per key in each window of `windowSeconds`. */
export function checkRateLimit(rateLimit: unknown): { limit: number; windowSeconds: number } {
  if (!isObject(rateLimit)) {
    throw optionError(WHERE, 'options.rateLimit', 'an object { limit, windowSeconds }, or absent for no limit', rateLimit);
  }
  checkOptionNames(WHERE, rateLimit, ['limit', 'windowSeconds'], 'options.rateLimit');
  const { limit, windowSeconds } = rateLimit;
  if (!wholeAtLeast(limit, 1) || !Number.isSafeInteger(limit)) {
    throw optionError(WHERE, 'options.rateLimit.limit', 'an integer of at least 1', limit);
  }
  if (!wholeAtLeast(windowSeconds, 1) || !Number.isSafeInteger(windowSeconds)) {
    throw optionError(WHERE, 'options.rateLimit.windowSeconds', 'an integer of at least 1 (seconds)', windowSeconds);
  }
  return { limit, windowSeconds };
}
