import type { ApiError } from '../errors.js';
import { retryAfterEstimate } from './retry-after.js';
import { type CheckedConcurrency, checkConcurrency } from '../options/concurrency.js';

/** Load shedding of one store (option `concurrency`): a bound on the requests doing database work at once. */
export interface ConcurrencyOptions {
  /**
   * The most requests this store lets do their work at once. A request is counted from when its
   * key was checked and its body has arrived until its answer is built (health, the OpenAPI
   * document and the docs page are never counted nor refused). See docs/operations.md, "Load shedding".
   */
  limit: number;
  /**
   * How many requests past `limit` may wait for a slot (each at most `maxWaitMs`); past them,
   * the next is answered 503 `overloaded` with `Retry-After`, after 100 ms (at most `maxWaitMs`),
   * so a client retrying at once costs little. Freed slots go first to the waiting key that holds
   * the fewest, so one key cannot take more than its share while others wait.
   * @default limit
   */
  queue?: number;
  /**
   * How long a request may wait for a slot before it is answered 503 `overloaded`.
   * @default 1000
   */
  maxWaitMs?: number;
  /**
   * The least `Retry-After` of a refusal, in seconds. Each refusal asks for the time the store
   * expects a slot to free for it, from its state now (docs/operations.md), at least this.
   * @default 1
   */
  retryAfterSeconds?: number;
  /**
   * The most `Retry-After` of a refusal, in seconds.
   * @default 30
   */
  maxRetryAfterSeconds?: number;
  /** Called once per refused request (for a counter); it must be cheap and must not throw. */
  onShed?: (request: Request) => void;
}

/** A store's request handler, as the adapter calls it. */
export type Handle = (request: Request) => Promise<Response>;

/**
 * How long a refusal given at once (every slot and queue place taken) is held before it is sent, at
 * most `maxWaitMs`: a client retrying at once then asks 10 times a second instead of thousands, so
 * refusing it no longer eats the CPU the admitted requests need (docs/decisions.md, "Under adversity").
 */
const REFUSAL_HOLD_MS = 100;

type Checked = CheckedConcurrency<ConcurrencyOptions['onShed']>;

interface Waiter {
  who: string;
  request: Request;
  admit: () => void;
  refuse: (error: ApiError) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The admission of requests to their work (pipeline.ts calls it once the key is checked and the
 * body is in): at most `limit` at once, per key `who`. Under the limit with nobody waiting, a
 * request enters at once (`enter` returns undefined: no promise, two counts). Otherwise it waits
 * in a bounded queue; a freed slot goes to the waiting key holding the fewest slots (the oldest
 * waiter of it), so a greedy key cannot crowd out another while both wait. A full queue refuses
 * the newcomer, unless its key holds less than the key with the most slots and waiters: then
 * that key's newest waiter is refused in its place. A waiter past `maxWaitMs` is refused. A
 * refusal given at once is sent after REFUSAL_HOLD_MS (at most `maxWaitMs`).
 */
export class Admission {
  readonly #options: Checked;
  readonly #estimate: ReturnType<typeof retryAfterEstimate>;
  readonly #holdMs: number;
  #inFlight = 0;
  /** Slots held per key. */
  readonly #held = new Map<string, number>();
  /** Waiters per key, oldest first; a key is removed once it has none. */
  readonly #waiting = new Map<string, Waiter[]>();
  #waitingCount = 0;

  constructor(options: ConcurrencyOptions) {
    this.#options = checkConcurrency(options);
    this.#estimate = retryAfterEstimate(this.#options);
    this.#holdMs = Math.min(REFUSAL_HOLD_MS, this.#options.maxWaitMs);
  }

  /** Admits `who`'s request: undefined when admitted at once, else a promise (rejected with a 503 `overloaded` when refused). */
  enter(who: string, request: Request): Promise<void> | undefined {
    if (this.#inFlight < this.#options.limit && this.#waitingCount === 0) {
      this.#take(who);
      return undefined;
    }
    if (this.#waitingCount >= this.#options.queue && !this.#makeRoomFor(who)) return this.#afterHold(this.#refusal(request));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        who,
        request,
        admit: resolve,
        refuse: reject,
        timer: setTimeout(() => this.#drop(waiter), this.#options.maxWaitMs),
      };
      const queue = this.#waiting.get(who);
      if (queue === undefined) this.#waiting.set(who, [waiter]);
      else queue.push(waiter);
      this.#waitingCount++;
    });
  }

  /**
   * The refusal `enter` would give `who` now (every slot held, the queue full of keys no heavier):
   * a promise rejected with it once held; else undefined.
   */
  refuseAtOnce(who: string, request: Request): Promise<never> | undefined {
    if (this.#waitingCount < this.#options.queue || this.#inFlight < this.#options.limit) return undefined;
    return this.#heavierThan(who) === undefined ? this.#afterHold(this.#refusal(request)) : undefined;
  }

  /** `who`'s request has its answer: its slot goes to the next waiter, if any. */
  leave(who: string): void {
    this.#inFlight--;
    const held = this.#held.get(who)! - 1;
    if (held === 0) this.#held.delete(who);
    else this.#held.set(who, held);
    this.#estimate.served();
    if (this.#waitingCount > 0) this.#admitNext();
  }

  #take(who: string): void {
    this.#inFlight++;
    this.#held.set(who, (this.#held.get(who) ?? 0) + 1);
  }

  /** The oldest waiter of the waiting key that holds the fewest slots enters. */
  #admitNext(): void {
    let chosen: Waiter[] | undefined;
    let fewest = Infinity;
    for (const [who, queue] of this.#waiting) {
      const held = this.#held.get(who) ?? 0;
      if (held < fewest) {
        fewest = held;
        chosen = queue;
      }
    }
    const waiter = chosen!.shift()!;
    this.#unqueue(waiter, chosen!);
    this.#take(waiter.who);
    waiter.admit();
  }

  /** A full queue: refuses the newest waiter of the key with the most slots and waiters, when that is more than `who` would have. */
  #makeRoomFor(who: string): boolean {
    const heaviest = this.#heavierThan(who);
    if (heaviest === undefined) return false;
    const evicted = heaviest.pop()!;
    this.#unqueue(evicted, heaviest);
    evicted.refuse(this.#refusal(evicted.request));
    return true;
  }

  /** The waiters of the key with the most slots and waiters, if that is more than `who` would have with one more. */
  #heavierThan(who: string): Waiter[] | undefined {
    let heaviest: Waiter[] | undefined;
    let most = (this.#held.get(who) ?? 0) + (this.#waiting.get(who)?.length ?? 0) + 1;
    for (const [key, queue] of this.#waiting) {
      const weight = (this.#held.get(key) ?? 0) + queue.length;
      if (weight > most) {
        most = weight;
        heaviest = queue;
      }
    }
    return heaviest;
  }

  /** A waiter past maxWaitMs. */
  #drop(waiter: Waiter): void {
    const queue = this.#waiting.get(waiter.who);
    const at = queue?.indexOf(waiter) ?? -1;
    if (at === -1) return;
    queue!.splice(at, 1);
    this.#unqueue(waiter, queue!, false);
    waiter.refuse(this.#refusal(waiter.request));
  }

  #unqueue(waiter: Waiter, queue: Waiter[], clear = true): void {
    if (clear) clearTimeout(waiter.timer);
    if (queue.length === 0) this.#waiting.delete(waiter.who);
    this.#waitingCount--;
  }

  /** `error`, rejected after the hold: one timer, no slot nor queue place. */
  #afterHold(error: ApiError): Promise<never> {
    return new Promise((_, reject) => setTimeout(() => reject(error), this.#holdMs));
  }

  #refusal(request: Request): ApiError {
    this.#options.onShed?.(request);
    return this.#estimate.refused(this.#waitingCount);
  }
}
