import { NotSentError, UnansweredError } from '../drivers/classify.js';
import { type DatabaseFailure, SERVER_ANSWER_GRACE_MS } from '../drivers/contract.js';
import type { NewStoredPet, PetRecord } from '../model.js';
import { insertPet, insertPets } from './pets.js';
import type { Executor } from './statement.js';

/**
 * At most this many pets in one statement; a round sends more as several statements of even size
 * at once. Small enough that one stuck statement holds few of the clients creating at once (the
 * others go on), large enough that a statement's fixed cost is shared (docs/performance.md).
 */
export const MAX_BATCH = 16;

/** The bounds of one process's batched creates (defaults: {@link DEFAULT_BOUNDS}). */
export interface InsertBounds {
  /**
   * A round still running after this long, or after 4 times the recent rounds' typical time if
   * longer (a busy machine slows every round alike), is slow: the creates that come meanwhile stop
   * waiting for it.
   */
  readonly slowRoundMs: number;
  /** At most this many rounds run at once, slow ones included. */
  readonly maxRounds: number;
  /** At most this many creates wait for a round; one more is refused at once (nothing sent, nothing stored). */
  readonly maxWaiting: number;
  /** A create that waited this long for a round is refused (nothing sent). */
  readonly maxWaitMs: number;
}

/** Slow after 100 ms; 4 rounds; 1,024 waiting; 5 s of waiting (the default partition bound). */
export const DEFAULT_BOUNDS: InsertBounds = Object.freeze({ slowRoundMs: 100, maxRounds: 4, maxWaiting: 1_024, maxWaitMs: 5_000 });

interface Waiting {
  pet: NewStoredPet;
  resolve: (record: PetRecord) => void;
  reject: (error: unknown) => void;
  /** When it began to wait (performance.now()). */
  since: number;
}

/** Statements sent together; `end` is called once per statement. */
class Round {
  readonly started = performance.now();
  /** Set aside as slow: the creates that came after it went on without it. */
  aside = false;
  constructor(
    private readonly ended: (round: Round) => void,
    private pending: number,
  ) {}
  readonly end = (): void => {
    if (--this.pending === 0) this.ended(this);
  };
}

/**
 * The store's creates without an `Idempotency-Key`, sent to the database together when they
 * arrive together (fast path `batched-creates`, docs/decisions.md, "Storage"). Creates go in
 * rounds: a create that comes while no round runs is sent at once, by itself (the plain statement,
 * so an idle store answers as fast as without batching), and is a round of its own; creates that
 * come while a round runs wait for it to end, then all go as the next round, at most
 * {@link MAX_BATCH} pets per statement, those statements at once. Each caller receives its own row once the statement that stored
 * it has committed (each statement commits on its own, outside a transaction).
 *
 * No head-of-line blocking: a round still running after `slowRoundMs` is set aside, and what
 * waits for it goes at once as the next round, so a stuck statement (a row lock, say) delays only
 * its own creates, which PostgreSQL ends at the statement timeout (nothing stored). Bounds per
 * process ({@link InsertBounds}): `maxRounds` at once (then creates wait for one to end),
 * `maxWaiting` creates, `maxWaitMs` of waiting; a create past either fails with a
 * {@link NotSentError} (503 with Retry-After, nothing sent, nothing stored).
 *
 * A batch that fails for a reason of the database's fails every create in it, as it would have
 * failed each alone, and is not sent again (whether it committed may be unknown). A batch that
 * fails otherwise stored nothing (one statement), so each of its creates is sent again by itself.
 */
export class PetInserts {
  readonly #target: Executor;
  #waiting: Waiting[] = [];
  /** The round that creates coming now wait for; undefined when none runs. */
  #current: Round | undefined;
  /** Rounds set aside as slow, still running. */
  #aside = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #bounds: InsertBounds;
  /** How long rounds that ended in time took, lately (a moving average, ms). */
  #typicalMs = 0;

  constructor(
    target: Executor,
    private readonly classify: (error: unknown) => DatabaseFailure | undefined,
    bounds: Partial<InsertBounds> = {},
  ) {
    this.#target = target;
    this.#bounds = { ...DEFAULT_BOUNDS, ...bounds };
  }

  /** Inserts `pet`; resolves with its record once stored. (A bound function: the store hands it to routes.) */
  readonly insert = (pet: NewStoredPet): Promise<PetRecord> => {
    const current = this.#current;
    if (current === undefined) {
      const round = (this.#current = new Round(this.#roundEnded, 1));
      const stored = insertPet(this.#target, pet);
      // The caller gets the statement's own promise (no step added); the round ends in a reaction of its own.
      stored.then(round.end, round.end);
      return stored;
    }
    if (this.#waiting.length >= this.#bounds.maxWaiting) {
      return Promise.reject(
        new NotSentError(`petstore-router: ${this.#bounds.maxWaiting} creates already wait for the database; not sent`),
      );
    }
    return new Promise<PetRecord>((resolve, reject) => {
      const since = performance.now();
      this.#waiting.push({ pet, resolve, reject, since });
      if (this.#timer === undefined) this.#arm(current.started + this.#slowMs() - since);
    });
  };

  readonly #roundEnded = (round: Round): void => {
    if (round.aside) {
      this.#aside--;
      // Room for one more round: the current one may be set aside now, if it is slow.
      if (this.#waiting.length > 0) this.#check();
      return;
    }
    this.#current = undefined;
    this.#typicalMs += (performance.now() - round.started - this.#typicalMs) / 8;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#next();
  };

  /** What waits goes as a new round (the current one). */
  #next(): void {
    const waiting = this.#waiting;
    if (waiting.length === 0) return;
    this.#waiting = [];
    const statements = Math.ceil(waiting.length / MAX_BATCH);
    const round = (this.#current = new Round(this.#roundEnded, statements));
    for (let i = 0; i < statements; i++) {
      this.#send(round, waiting.slice(Math.floor((i * waiting.length) / statements), Math.floor(((i + 1) * waiting.length) / statements)));
    }
  }

  #slowMs(): number {
    return Math.max(this.#bounds.slowRoundMs, 4 * this.#typicalMs);
  }

  #arm(delayMs: number): void {
    // Armed only while creates wait: it keeps the process up as their own work would.
    this.#timer = setTimeout(this.#check, Math.max(1, Math.ceil(delayMs)));
  }

  /** Creates wait: refuse those past their bound; set a slow round aside if there is room, else look again later. */
  readonly #check = (): void => {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const { maxRounds, maxWaitMs } = this.#bounds;
    const slowRoundMs = this.#slowMs();
    const now = performance.now();
    let expired = 0;
    while (expired < this.#waiting.length && now - this.#waiting[expired]!.since >= maxWaitMs) expired++;
    for (const w of this.#waiting.splice(0, expired)) {
      w.reject(new NotSentError(`petstore-router: a create waited ${maxWaitMs} ms for the database; not sent`));
    }
    const current = this.#current;
    if (current === undefined || this.#waiting.length === 0) return;
    const age = now - current.started;
    if (age >= slowRoundMs && this.#aside < maxRounds - 1) {
      current.aside = true;
      this.#aside++;
      this.#current = undefined;
      this.#next();
      return;
    }
    // Not slow yet: look again when it is. Slow, with every round running: again soon (a round may end, a wait pass its bound).
    this.#arm(age < slowRoundMs ? slowRoundMs - age : slowRoundMs);
  };

  /**
   * A create's whole wait stays within its bound plus the grace for the server's answer, as a create
   * sent at once: a batch whose oldest create would pass it is answered unanswered (may be stored).
   */
  #answerBy(batch: Waiting[]): ReturnType<typeof setTimeout> {
    const oldest = batch[0]!.since; // waiting creates are kept in arrival order
    const delayMs = oldest + this.#bounds.maxWaitMs + SERVER_ANSWER_GRACE_MS - performance.now();
    const timer = setTimeout(
      () => {
        const error = new UnansweredError(
          `petstore-router: a create got no answer within ${this.#bounds.maxWaitMs + SERVER_ANSWER_GRACE_MS} ms`,
        );
        for (const w of batch) w.reject(error);
      },
      Math.max(1, Math.ceil(delayMs)),
    );
    return timer;
  }

  /** One statement of `round`: `batch`'s pets. */
  #send(round: Round, batch: Waiting[]): void {
    const timer = this.#answerBy(batch);
    const end = (): void => {
      clearTimeout(timer);
      round.end();
    };
    if (batch.length === 1) {
      const only = batch[0]!;
      const stored = insertPet(this.#target, only.pet);
      stored.then(only.resolve, only.reject);
      stored.then(end, end);
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
        end();
      },
      (error: unknown) => {
        if (this.classify(error) !== undefined) {
          for (const w of batch) w.reject(error);
          end();
          return;
        }
        // Nothing of the batch was stored: each pet alone, and the round's statement ends with them.
        void Promise.all(batch.map((w) => insertPet(this.#target, w.pet).then(w.resolve, w.reject))).then(end);
      },
    );
  }
}
