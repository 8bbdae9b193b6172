// `concurrency` of createPetStore (load shedding): slots, queue, waits and Retry-After bounds.
import { checkOptionNames, isObject, optionError, wholeAtLeast } from './check.js';

const WHERE = 'createPetStore';
const DEFAULT_MAX_WAIT_MS = 1_000;
const DEFAULT_RETRY_AFTER_SECONDS = 1;
const DEFAULT_MAX_RETRY_AFTER_SECONDS = 30;
const NAMES = ['limit', 'queue', 'maxWaitMs', 'retryAfterSeconds', 'maxRetryAfterSeconds', 'onShed'];

/** `concurrency` with its defaults filled in. */
export interface CheckedConcurrency<OnShed> {
  limit: number;
  queue: number;
  maxWaitMs: number;
  retryAfterSeconds: number;
  maxRetryAfterSeconds: number;
  onShed: OnShed | undefined;
}

/** `concurrency`, checked, with its defaults (`queue` = `limit`, 1 s wait, Retry-After from 1 to 30 s). */
export function checkConcurrency<OnShed>(options: { onShed?: OnShed }): CheckedConcurrency<OnShed> {
  if (!isObject(options)) throw optionError(WHERE, 'options.concurrency', 'an object such as { limit: 40 }', options);
  checkOptionNames(WHERE, options, NAMES, 'options.concurrency');
  const {
    limit,
    queue = limit,
    maxWaitMs = DEFAULT_MAX_WAIT_MS,
    retryAfterSeconds = DEFAULT_RETRY_AFTER_SECONDS,
    maxRetryAfterSeconds = Math.max(Number(retryAfterSeconds), DEFAULT_MAX_RETRY_AFTER_SECONDS),
    onShed,
  } = options as Record<string, unknown>;
  const check = (name: string, value: unknown, least: number, expected: string) => {
    if (!wholeAtLeast(value, least)) throw optionError(WHERE, `options.concurrency.${name}`, expected, value);
    return value;
  };
  const checked = {
    limit: check('limit', limit, 1, 'a positive integer'),
    queue: check('queue', queue, 0, 'a whole number, 0 or more'),
    maxWaitMs: check('maxWaitMs', maxWaitMs, 1, 'a positive whole number of milliseconds'),
    retryAfterSeconds: check('retryAfterSeconds', retryAfterSeconds, 1, 'a whole number of seconds, at least 1'),
    maxRetryAfterSeconds: 0,
  };
  checked.maxRetryAfterSeconds = check(
    'maxRetryAfterSeconds',
    maxRetryAfterSeconds,
    checked.retryAfterSeconds,
    'a whole number of seconds, at least retryAfterSeconds',
  );
  if (onShed !== undefined && typeof onShed !== 'function') {
    throw optionError(WHERE, 'options.concurrency.onShed', 'a function (request) => void', onShed);
  }
  return { ...checked, onShed: onShed as OnShed | undefined };
}
