import type pg from 'pg';
import { type HostList, type SessionAttrs, hostList } from '../../options/hosts-url.js';
import { type Lend, lender, ownPool } from './pool.js';
import type { PoolStatements, StatementClient } from './statement-client.js';
import { NoFittingHostError, type Verdict, check, fits, serverFailure } from './host-check.js';

/** A host known down, or known not to fit, is skipped by new connections this long, then tried again. */
export const RECHECK_MS = 500;

/** One host of the list: its pool, and what is known of it. */
class Host {
  readonly pool: pg.Pool;
  readonly lend: Lend;
  /** Bumped when the host may have changed (a failure, a new verdict): clients checked before are checked again. */
  epoch = 0;
  verdict: Verdict | undefined;
  downAt = -Infinity;
  /** The clients checked in this epoch. */
  checked = new WeakSet<StatementClient>();

  constructor(
    readonly name: string,
    config: pg.PoolConfig,
    statements: Omit<PoolStatements, 'failed'>,
  ) {
    this.pool = ownPool(config);
    // A connection dropped (lost, timed out, idle): its host may have changed; check the others again.
    this.pool.on('remove', () => this.recheck());
    // A statement failed for a reason of the server's (not an ordinary SQL error): the same, and forget the verdict.
    this.lend = lender(this.pool, { ...statements, failed: (error) => serverFailure(error) && this.changed() });
  }

  /** Clients checked before are checked again at their next lend. */
  recheck(): void {
    this.epoch++;
    this.checked = new WeakSet();
  }

  changed(): void {
    this.recheck();
    this.verdict = undefined;
  }
}

/**
 * The hosts of a libpq multi-host URL, a pool each, lent libpq's way: each connection tries the
 * hosts in the list's order (or a random order with `load_balance_hosts=random`) and keeps the
 * first whose server fits `target_session_attrs` (prefer-standby: a standby, else any). A new
 * connection is checked once; a pooled one again after anything on its host failed, so one whose
 * server stopped fitting (a primary demoted) is destroyed rather than lent. No host fitting is a
 * {@link NoFittingHostError} (503), after at most one connect bound per host tried.
 */
export class HostSet {
  readonly #hosts: Host[];
  readonly #list: HostList;

  constructor(list: HostList, config: pg.PoolConfig, statements: Omit<PoolStatements, 'failed'>) {
    this.#list = list;
    this.#hosts = list.urls.map((url, i) => new Host(list.names[i]!, { ...config, connectionString: url }, statements));
  }

  /** The pools, for `end()` and Kysely's `options`. */
  get pools(): readonly pg.Pool[] {
    return this.#hosts.map((host) => host.pool);
  }

  readonly lend: Lend = (callback) => {
    const attrs = this.#list.sessionAttrs;
    const order = this.#list.random ? shuffled(this.#hosts) : this.#hosts;
    const rounds: SessionAttrs[] = attrs === 'prefer-standby' ? ['standby', 'any'] : [attrs];
    let last: unknown;
    const attempt = (round: number, i: number): void => {
      if (i === order.length) {
        if (round + 1 < rounds.length) return attempt(round + 1, 0);
        return callback(new NoFittingHostError(this.#list.names, attrs, last), undefined);
      }
      const host = order[i]!;
      const now = performance.now();
      const known = host.verdict;
      if (now - host.downAt < RECHECK_MS || (known !== undefined && now - known.at < RECHECK_MS && !fits(known, rounds[round]!))) {
        return attempt(round, i + 1);
      }
      host.lend((error, client) => {
        if (error || client === undefined) {
          last = error;
          host.downAt = performance.now();
          return attempt(round, i + 1);
        }
        if (host.checked.has(client)) return callback(undefined, client);
        check(client).then(
          (verdict) => {
            const before = host.verdict;
            // The server changed (promoted, demoted): every client of it is checked again.
            if (before !== undefined && (before.standby !== verdict.standby || before.readOnly !== verdict.readOnly)) host.recheck();
            host.verdict = verdict;
            if (fits(verdict, rounds[round]!)) {
              host.checked.add(client);
              return callback(undefined, client);
            }
            client.release(true);
            attempt(round, i + 1);
          },
          (checkError: unknown) => {
            last = checkError;
            client.release(true);
            host.downAt = performance.now();
            attempt(round, i + 1);
          },
        );
      });
    };
    attempt(0, 0);
  };

  end(): Promise<void> {
    return Promise.all(this.#hosts.map((host) => host.pool.end())).then(() => undefined);
  }
}

/** A copy of `items` in random order (Fisher-Yates). */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** A pool of ours, or the pools of a multi-host URL: how it lends, and how it ends. */
export interface Pools {
  readonly lend: Lend;
  readonly options: pg.PoolOptions;
  end(): Promise<void>;
}

/**
 * The pools for `config`: one pg.Pool for a plain URL or config (the path every single-host user
 * takes, unchanged), a {@link HostSet} for a libpq multi-host URL (hosts-url.ts).
 */
export function openPools(config: pg.PoolConfig, statements: Omit<PoolStatements, 'failed'>, name: string): Pools {
  const list = config.connectionString === undefined ? undefined : hostList(config.connectionString, name);
  if (list === undefined) {
    const pool = ownPool(config);
    return { lend: lender(pool, statements), options: pool.options, end: () => pool.end() };
  }
  const hosts = new HostSet(list, config, statements);
  return { lend: hosts.lend, options: hosts.pools[0]!.options, end: () => hosts.end() };
}
