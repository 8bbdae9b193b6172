import { databaseFailureOf } from '../drivers/failure.js';
import { isDatabaseUnavailable } from '../drivers/errors.js';
import type { NewStoredPet, PetRecord } from '../model.js';
import { insertPet, insertPets } from './pets.js';
import type { StatementTarget } from './statement.js';

/** At most this many pets in one statement; more wait for the next. */
const MAX_BATCH = 64;

interface Waiting {
  pet: NewStoredPet;
  resolve: (record: PetRecord) => void;
  reject: (error: unknown) => void;
}

/**
 * The store's creates without an `Idempotency-Key`, sent to the database together when they
 * arrive together (fast path `batched-creates`, docs/performance.md). One insert runs at a time:
 * a create that comes while none runs is sent at once, by itself (the plain statement, so an idle
 * store answers as fast as without batching); creates that come while one runs wait for it and
 * then go as one statement. Each caller receives its own row, and is acknowledged only once the
 * statement that stored it has committed (each statement commits on its own, outside a transaction).
 *
 * A batch that fails for a reason of the database's (unreachable, timed out, closed, not
 * migrated) fails every create in it, as each alone would have, and is not sent again (whether it
 * committed may be unknown); one that fails otherwise stored nothing (one statement), so each of
 * its creates is sent again by itself and meets its own outcome. When the statement that runs
 * fails for the database's reason, the creates waiting for it fail with the same error: they have
 * waited as long as it did, and sending them now would start a second wait of the same length,
 * past the bound every wait on the database keeps (`maxWaitMs` of createPostgresDatabase).
 */
export class PetInserts {
  readonly #target: StatementTarget;
  #queue: Waiting[] = [];
  #running = false;

  constructor(target: StatementTarget) {
    this.#target = target;
  }

  /** Inserts `pet`; resolves with its record once stored. (A bound function: the store hands it to routes.) */
  readonly insert = (pet: NewStoredPet): Promise<PetRecord> => {
    if (!this.#running) {
      this.#running = true;
      const stored = insertPet(this.#target, pet);
      // The caller gets the statement's own promise (no step added); the next batch starts from a
      // reaction of its own.
      stored.then(this.#next, this.#failed);
      return stored;
    }
    return new Promise<PetRecord>((resolve, reject) => this.#queue.push({ pet, resolve, reject }));
  };

  /** Sends what waited while the last statement ran, or marks the way free. */
  readonly #next = (): void => {
    const waiting = this.#queue;
    if (waiting.length === 0) {
      this.#running = false;
      return;
    }
    const batch = waiting.length <= MAX_BATCH ? waiting : waiting.splice(0, MAX_BATCH);
    if (batch === waiting) this.#queue = [];
    if (batch.length === 1) {
      const only = batch[0]!;
      const stored = insertPet(this.#target, only.pet);
      stored.then(only.resolve, only.reject);
      stored.then(this.#next, this.#failed);
      return;
    }
    insertPets(
      this.#target,
      batch.map((w) => w.pet),
    ).then(
      (records) => {
        if (records.length !== batch.length) {
          const error = new Error(`petstore-router: inserting ${batch.length} pets answered ${records.length} rows`);
          for (const w of batch) w.reject(error);
        } else for (let i = 0; i < batch.length; i++) batch[i]!.resolve(records[i]!);
        this.#next();
      },
      (error: unknown) => {
        if (isDatabaseFault(error)) for (const w of batch) w.reject(error);
        else for (const w of batch) insertPet(this.#target, w.pet).then(w.resolve, w.reject);
        this.#failed(error);
      },
    );
  };

  /** The statement that ran failed: those waiting for it fail too if the database is at fault; then the next. */
  readonly #failed = (error: unknown): void => {
    if (isDatabaseFault(error)) {
      const waiting = this.#queue;
      this.#queue = [];
      for (const w of waiting) w.reject(error);
    }
    this.#next();
  };
}

/** The database, not the pets, made the statement fail: unreachable, timed out, closed, not migrated. */
function isDatabaseFault(error: unknown): boolean {
  return isDatabaseUnavailable(error) || databaseFailureOf(error) !== undefined;
}
