import type { RouteRequest } from './context.js';
import * as v from 'valibot';
import { ApiError, ErrorCode } from '../errors.js';
import { type JsonAnswer, jsonResponse } from '../http/answer.js';
import { sha256Hex } from '../http/sha256.js';
import { textParam } from '../schemas/param.js';
import type { StoredResponse } from '../storage/idempotency.js';
import type { TransactionRepositories } from '../storage/repositories.js';

/**
 * `Idempotency-Key` on `POST /pets` (IETF httpapi draft). See docs/reliability.md for the
 * contract: replay on the same key and request, 422 on the same key with another request, 409
 * while the first request with the key is still running.
 */

/** Set to `true` on an answer replayed from an earlier request with the same key. */
export const REPLAYED_HEADER = 'idempotent-replayed';

const VISIBLE_ASCII_KEY = /^[\x21-\x7e]{1,255}$/;
// The draft defines the value as a Structured Field String (`"…"`); bare tokens are common too.
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

const KEY_MESSAGE = 'must be one header of 1 to 255 visible ASCII characters';

/**
 * The `Idempotency-Key` request header: a key of 1 to 255 visible ASCII characters. A quoted value
 * (`"abc"`) is the same key as the bare one (`abc`). Several headers arrive joined with ", ",
 * which has a space: refused.
 */
export const idempotencyKeyHeader = textParam({
  schema: v.pipe(
    v.string(),
    // The quoted form is two characters longer; the exact rule is the transform below.
    v.minLength(1, KEY_MESSAGE),
    v.maxLength(257, KEY_MESSAGE),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const quoted = SF_STRING.exec(dataset.value);
      const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : dataset.value;
      if (VISIBLE_ASCII_KEY.test(key)) return key;
      addIssue({ message: KEY_MESSAGE });
      return NEVER;
    }),
  ),
  description:
    'Makes a retry safe: a repeat with the same key and body replays the first answer (with ' +
    '`Idempotent-Replayed: true`) instead of adding a second animal. 1 to 255 visible ASCII characters, ' +
    'optionally as a quoted string; remembered per API key for 24 hours by default.',
});

/** Hex SHA-256 of a canonical text of the request (the operation and the validated body). */
export function fingerprint(canonical: string): string {
  return sha256Hex(canonical);
}

/** The Response of a stored answer. */
export function storedResponse(stored: StoredResponse, extra?: Record<string, string>): JsonAnswer {
  return jsonResponse(stored.status, stored.body, { ...(stored.location === null ? {} : { location: stored.location }), ...extra });
}

/**
 * Runs `work` at most once per (principal, key): the first request claims the key, does the work
 * and stores its answer in one transaction; a retry replays that answer.
 */
export async function idempotent(
  { store, principal }: Pick<RouteRequest, 'store' | 'principal'>,
  key: string,
  requestFingerprint: string,
  work: (tx: TransactionRepositories) => Promise<StoredResponse>,
): Promise<JsonAnswer> {
  const claim = await store.idempotency.claim({
    principal,
    key,
    fingerprint: requestFingerprint,
    now: store.now(),
    ttlMs: store.idempotencyTtlMs,
  });
  if (claim.outcome !== 'claimed') {
    if (claim.fingerprint !== requestFingerprint) {
      throw new ApiError({
        status: 422,
        code: ErrorCode.unprocessable,
        message: 'this Idempotency-Key was already used with another request body',
      });
    }
    if (claim.outcome === 'in_flight') throw inFlight();
    return storedResponse(claim.response, { [REPLAYED_HEADER]: 'true' });
  }

  const ids = { principal, key, claimId: claim.claimId };
  try {
    const stored = await store.idempotency.complete(ids, work);
    // Our claim was taken over as abandoned (nothing kept): the other request owns the key now.
    if (stored === undefined) throw inFlight();
    return storedResponse(stored);
  } catch (error) {
    // Let a retry with the same key run; if even this fails, the claim goes stale and is taken over.
    await store.idempotency.release(ids).catch(() => {});
    throw error;
  }
}

function inFlight(): ApiError {
  return new ApiError({
    status: 409,
    code: ErrorCode.conflict,
    message: 'a request with this Idempotency-Key is still in progress; retry later',
    headers: {
      'retry-after': '1',
    },
  });
}
