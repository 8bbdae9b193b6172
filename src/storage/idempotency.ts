import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * `Idempotency-Key` records (IETF httpapi draft "The Idempotency-Key HTTP Header Field"), kept in
 * `petstore_idempotency_keys` so any number of stateless processes sharing one database agree.
 *
 * A request first *claims* its (principal, key) with one `insert ... on conflict do update ...
 * where <expired or abandoned> returning`: exactly one concurrent request gets a row back. The
 * winner then inserts the pet and *completes* the record in one transaction; the completion is
 * fenced by `claim_id`, so a slow request whose abandoned claim was taken over cannot store a
 * second pet. On failure the winner *releases* its claim so the client may retry.
 */

/** How long a key is remembered by default: 24 hours. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * An `in_flight` claim older than this is treated as abandoned (its process crashed) and may be
 * taken over. Safety does not depend on it (completion is fenced); it only bounds how long a crash
 * makes a key answer 409.
 */
export const IDEMPOTENCY_CLAIM_TIMEOUT_MS = 30_000;

/** Expired rows deleted by each successful claim: bounded work, yet faster than keys are added. */
export const IDEMPOTENCY_PURGE_BATCH = 10;

/** The stored answer that a retry with the same key replays. */
export interface StoredResponse {
  status: number;
  body: string;
  location: string | null;
}

export interface ClaimInput {
  principal: string;
  key: string;
  fingerprint: string;
  now: Date;
  ttlMs: number;
  claimTimeoutMs?: number;
}

export type ClaimResult =
  | { outcome: 'claimed'; claimId: string }
  | { outcome: 'completed'; fingerprint: string; response: StoredResponse }
  | { outcome: 'in_flight'; fingerprint: string };

/**
 * Claims `key` for `principal`, or reports what holds it. A row that has expired, or an `in_flight`
 * claim older than `claimTimeoutMs`, is taken over as if absent. Each successful claim also
 * deletes up to {@link IDEMPOTENCY_PURGE_BATCH} expired rows of other keys (skipping locked ones).
 */
export async function claimIdempotencyKey(db: Kysely<Database>, input: ClaimInput): Promise<ClaimResult> {
  const { principal, key, fingerprint, now } = input;
  const staleBefore = new Date(now.getTime() - (input.claimTimeoutMs ?? IDEMPOTENCY_CLAIM_TIMEOUT_MS));
  // A row can vanish between the failed claim and the read (released, purged): then claim again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimId = crypto.randomUUID();
    const claimed = await db
      .with('purged', (qb) =>
        qb.deleteFrom('petstore_idempotency_keys').where((eb) =>
          eb(
            eb.refTuple('principal', 'idempotency_key'),
            'in',
            eb
              .selectFrom('petstore_idempotency_keys as old')
              .select(['old.principal', 'old.idempotency_key'])
              .where('old.expires_at', '<=', now)
              // Never the row this statement upserts: that one is taken over, not deleted.
              .where((w) => w.or([w('old.principal', '!=', principal), w('old.idempotency_key', '!=', key)]))
              .orderBy('old.expires_at')
              .limit(IDEMPOTENCY_PURGE_BATCH)
              .forUpdate()
              .skipLocked()
              .$asTuple('principal', 'idempotency_key'),
          ),
        ),
      )
      .insertInto('petstore_idempotency_keys')
      .values({
        principal,
        idempotency_key: key,
        fingerprint,
        state: 'in_flight',
        claim_id: claimId,
        claimed_at: now,
        expires_at: new Date(now.getTime() + input.ttlMs),
        response_status: null,
        response_body: null,
        response_location: null,
      })
      .onConflict((oc) =>
        oc
          .columns(['principal', 'idempotency_key'])
          .doUpdateSet((eb) => ({
            fingerprint: eb.ref('excluded.fingerprint'),
            state: eb.ref('excluded.state'),
            claim_id: eb.ref('excluded.claim_id'),
            claimed_at: eb.ref('excluded.claimed_at'),
            expires_at: eb.ref('excluded.expires_at'),
            response_status: null,
            response_body: null,
            response_location: null,
          }))
          // Evaluated on the latest committed row version, so two takeovers cannot both win.
          .where((w) =>
            w.or([
              w('petstore_idempotency_keys.expires_at', '<=', now),
              w.and([w('petstore_idempotency_keys.state', '=', 'in_flight'), w('petstore_idempotency_keys.claimed_at', '<=', staleBefore)]),
            ]),
          ),
      )
      .returning('claim_id')
      .executeTakeFirst();
    if (claimed) return { outcome: 'claimed', claimId: claimed.claim_id };

    const row = await db
      .selectFrom('petstore_idempotency_keys')
      .select(['fingerprint', 'state', 'claimed_at', 'expires_at', 'response_status', 'response_body', 'response_location'])
      .where('principal', '=', principal)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    if (!row || new Date(row.expires_at) <= now) continue;
    if (row.state === 'completed' && row.response_status !== null && row.response_body !== null) {
      const response = { status: row.response_status, body: row.response_body, location: row.response_location };
      return { outcome: 'completed', fingerprint: row.fingerprint, response };
    }
    if (new Date(row.claimed_at) <= staleBefore) continue;
    return { outcome: 'in_flight', fingerprint: row.fingerprint };
  }
  // Still contended after several rounds: another request is busy with this key.
  return { outcome: 'in_flight', fingerprint };
}

/**
 * Stores the answer of a claimed key. Run it in the transaction that did the work: it returns
 * false when the claim is no longer ours (taken over as abandoned), and the caller must roll back.
 */
export async function completeIdempotencyKey(
  db: Kysely<Database>,
  claim: { principal: string; key: string; claimId: string },
  response: StoredResponse,
): Promise<boolean> {
  const result = await db
    .updateTable('petstore_idempotency_keys')
    .set({ state: 'completed', response_status: response.status, response_body: response.body, response_location: response.location })
    .where('principal', '=', claim.principal)
    .where('idempotency_key', '=', claim.key)
    .where('claim_id', '=', claim.claimId)
    .where('state', '=', 'in_flight')
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Gives up a claim whose work failed, so a retry with the same key can run. */
export async function releaseIdempotencyKey(
  db: Kysely<Database>,
  claim: { principal: string; key: string; claimId: string },
): Promise<void> {
  await db
    .deleteFrom('petstore_idempotency_keys')
    .where('principal', '=', claim.principal)
    .where('idempotency_key', '=', claim.key)
    .where('claim_id', '=', claim.claimId)
    .where('state', '=', 'in_flight')
    .execute();
}
