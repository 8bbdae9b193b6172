/** A WAL position as PostgreSQL prints a `pg_lsn` (`16/B374D848`). */
const LSN = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/;

/** `text` if it is a `pg_lsn` as PostgreSQL prints it, else an error: it is written into SQL text. */
export function checkedLsn(text: unknown): string {
  if (typeof text !== 'string' || !LSN.test(text)) throw new Error(`petstore-router: not a WAL position: ${String(text)}`);
  return text;
}

/** The next turn of the event loop (after the I/O callbacks of this one), or the next microtask where there is none. */
const nextTurn: (run: () => void) => void = typeof setImmediate === 'function' ? (run) => void setImmediate(run) : queueMicrotask;

/**
 * The primary's current WAL position (`pg_current_wal_lsn()`) for reads, read by a query sent
 * after the read asked: every write answered before the read arrived is at or before it, in any
 * process, since they all share the primary.
 *
 * Reads asking in the same turn of the event loop share one query, which is sent on the next
 * turn, after all of them asked. A query already sent is never shared with a read that asks later
 * (it may have read the position before that read's request arrived).
 */
export class PrimaryPosition {
  #next: Promise<string> | undefined;
  /** The latest position read (the probe's too): what reads while no primary answers must show at least. */
  latest: string | undefined;

  constructor(private readonly query: () => Promise<string>) {}

  /** A position read from the primary: kept if later than the latest. */
  note(lsn: string): void {
    this.latest = laterLsn(this.latest, lsn);
  }

  /** The position, read by a query sent after this call. */
  after(): Promise<string> {
    if (this.#next !== undefined) return this.#next;
    const next = new Promise<string>((resolve, reject) => {
      nextTurn(() => {
        // From here on, a read that asks gets a query of its own: this one is being sent.
        this.#next = undefined;
        new Promise<string>((sent) => sent(this.query())).then(checkedLsn).then((lsn) => {
          this.note(lsn);
          resolve(lsn);
        }, reject);
      });
    });
    this.#next = next;
    return next;
  }
}

/** A `pg_lsn` as a number of bytes (exact: WAL positions stay below 2^53 for centuries of writes). */
export function lsnBytes(lsn: string): number {
  const slash = lsn.indexOf('/');
  return parseInt(lsn.slice(0, slash), 16) * 2 ** 32 + parseInt(lsn.slice(slash + 1), 16);
}

/** The later of two positions (either may be undefined). */
export function laterLsn(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return lsnBytes(a) >= lsnBytes(b) ? a : b;
}
