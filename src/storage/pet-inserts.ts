import type { DatabaseFailure } from '../drivers/contract.js';
import type { NewStoredPet, PetRecord } from '../model.js';
import { insertPet, insertPets } from './pets.js';
import type { Executor } from './statement.js';

/** At most this many pets in one statement; a round sends more as several statements at once. */
const MAX_BATCH = 64;

interface Waiting {
  pet: NewStoredPet;
  resolve: (record: PetRecord) => void;
  reject: (error: unknown) => void;
}

/**
 * The store's creates without an `Idempotency-Key`, sent to the database together when they
 * arrive together (fast path `batched-creates`, docs/decisions.md, "Storage"). Creates go in
 * rounds: a create that comes while no round runs is sent at once, by itself (the plain statement,
 * so an idle store answers as fast as without batching), and is a round of its own; creates that
 * come while a round runs wait for it to end, then all go as the next round, one statement per 64
 * pets, those statements at once. So a create waits for at most one round before its own, and
 * each statement of a round keeps the driver's bounds (a connection lent in time, the statement
 * timeout). Each caller receives its own row, once the statement that stored it has committed
 * (each statement commits on its own, outside a transaction).
 *
 * A batch that fails for a reason of the database's (unreachable, timed out, closed, not
 * migrated) fails every create in it, as it would have failed each alone, and is not sent again:
 * whether it committed may be unknown. A batch that fails otherwise stored nothing (one statement),
 * so each of its creates is sent again by itself and meets its own outcome. When a statement of a
 * round fails only once its bound has passed (a statement or connection timeout), the creates
 * waiting for the round fail with the same error: they have waited that long already, and sending
 * them would start a second wait as long. After any other failure they are sent.
 */
export class PetInserts {
  readonly #target: Executor;
  #waiting: Waiting[] = [];
  /** Statements of the running round that have not ended; 0 when no round runs. */
  #running = 0;

  constructor(
    target: Executor,
    private readonly classify: (error: unknown) => DatabaseFailure | undefined,
  ) {
    this.#target = target;
  }

  /** Inserts `pet`; resolves with its record once stored. (A bound function: the store hands it to routes.) */
  readonly insert = (pet: NewStoredPet): Promise<PetRecord> => {
    if (this.#running === 0) {
      this.#running = 1;
      const stored = insertPet(this.#target, pet);
      // The caller gets the statement's own promise (no step added); the round ends in a
      // reaction of its own.
      stored.then(this.#ended, this.#failed);
      return stored;
    }
    return new Promise<PetRecord>((resolve, reject) => this.#waiting.push({ pet, resolve, reject }));
  };

  /** A statement of the round ended; the last one sends what waited, as the next round. */
  readonly #ended = (): void => {
    if (--this.#running > 0) return;
    const waiting = this.#waiting;
    if (waiting.length === 0) return;
    this.#waiting = [];
    this.#running = Math.ceil(waiting.length / MAX_BATCH);
    for (let start = 0; start < waiting.length; start += MAX_BATCH) this.#send(waiting.slice(start, start + MAX_BATCH));
  };

  /** A statement of the round failed with `error`. */
  readonly #failed = (error: unknown): void => {
    if (this.classify(error)?.kind === 'timeout') {
      const waiting = this.#waiting;
      this.#waiting = [];
      for (const w of waiting) w.reject(error);
    }
    this.#ended();
  };

  /** One statement of a round: `batch`'s pets. */
  #send(batch: Waiting[]): void {
    if (batch.length === 1) {
      const only = batch[0]!;
      const stored = insertPet(this.#target, only.pet);
      stored.then(only.resolve, only.reject);
      stored.then(this.#ended, this.#failed);
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
        this.#ended();
      },
      (error: unknown) => {
        if (this.classify(error) !== undefined) {
          for (const w of batch) w.reject(error);
          this.#failed(error);
          return;
        }
        // Nothing of the batch was stored: each pet alone, and the round's statement ends with them.
        void Promise.all(batch.map((w) => insertPet(this.#target, w.pet).then(w.resolve, w.reject))).then(this.#ended);
      },
    );
  }
}
