import type { Migration } from 'kysely/migration';
import * as initial from './0001-initial.js';
import * as idempotencyKeys from './0002-idempotency-keys.js';
import * as rateLimits from './0003-rate-limits.js';

/** Every migration, in order. Names are sorted by Kysely, hence the numeric prefix. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-idempotency-keys': idempotencyKeys,
  '0003-rate-limits': rateLimits,
};
