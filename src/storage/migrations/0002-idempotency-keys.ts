import { type Kysely, sql } from 'kysely';

// Released migrations are never edited: add a new file instead.

/**
 * `Idempotency-Key` records of `POST /pets`, one per (API key fingerprint, Idempotency-Key).
 * `claim_id` fences the completion: only the request holding the current claim may store its
 * response, so taking over an abandoned claim can never create a second pet.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('petstore_idempotency_keys')
    .addColumn('principal', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('claim_id', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('response_location', 'text')
    .addPrimaryKeyConstraint('petstore_idempotency_keys_pkey', ['principal', 'idempotency_key'])
    .addCheckConstraint('petstore_idempotency_keys_state_check', sql`state in ('in_flight', 'completed')`)
    .execute();
  // The opportunistic purge takes the oldest expired rows first: an index range scan.
  await db.schema.createIndex('petstore_idempotency_keys_expires_at_idx').on('petstore_idempotency_keys').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('petstore_idempotency_keys').execute();
}
