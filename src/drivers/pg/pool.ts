import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { UNABLE_TO_CONNECT, classifyDatabaseError } from '../classify.js';
import { type PoolStatements, StatementClient } from './statement-client.js';
import type { ServerBound } from './server-bound.js';
import type { StatementDeadlines } from './timeout.js';

const INT8_OID = 20;

/**
 * A pg.Pool of ours with safe defaults: connect timeout 5 s, int8 parsed as bigint for this pool
 * only (never through pg's global type parsers), and an 'error' listener. The statement timeout
 * is kept on the client side (timeout.ts); it goes as a startup parameter only where the server
 * was seen to take it (session-bound.ts): a transaction-mode pooler refuses most of them.
 */
export function ownPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({
    connectionTimeoutMillis: 5_000,
    ...config,
    types: config.types ?? {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (v: string) => BigInt(v)
          : (pg.types.getTypeParser(oid, format) as (value: string) => unknown)) as pg.CustomTypesConfig['getTypeParser'],
    },
  });
  // An idle client losing its connection (database restart) emits 'error' on the pool; without a
  // listener that would crash the process. The pool drops the client and reconnects on demand.
  pool.on('error', (error) => console.warn(`petstore-router: idle PostgreSQL connection lost: ${error.message}`));
  return pool;
}

const guarded = new WeakSet<pg.PoolClient>();

/**
 * pg-pool removes its own 'error' listener from a client while the client is lent out, so a
 * connection lost between two queries of a checked-out client (PostgreSQL stopped, a network
 * reset) emitted an unhandled 'error' and crashed the process. Nothing else needs doing: the next
 * query on that client fails (answered 503), and the pool discards the client on release because
 * it is no longer queryable.
 */
export function guardClient(client: pg.PoolClient): pg.PoolClient {
  if (!guarded.has(client)) {
    guarded.add(client);
    client.on('error', () => {});
  }
  return client;
}

/** Lends a client of a pool of ours: `callback` gets it (its StatementClient) or the connect error. */
export type Lend = (callback: (error: Error | undefined, client: StatementClient | undefined) => void) => void;

/** One client of `lend`, in one promise (the callback form inside it: no promise hop of pg-pool's). */
export function lendClient(lend: Lend): Promise<StatementClient> {
  return new Promise<StatementClient>((resolve, reject) => {
    lend((error, client) =>
      error || client === undefined ? reject(error ?? new Error('petstore-router: the pool lent no client')) : resolve(client),
    );
  });
}

/**
 * A connection that could not be made sent nothing: a connection lost while connecting (a proxy
 * such as HAProxy that accepts, then closes for want of a server) is said as such (SQLSTATE 08001,
 * nothing stored), not as a connection lost under a statement whose outcome is unknown.
 */
function connectError(error: Error | undefined): Error {
  if (error === undefined) return new Error('petstore-router: the pool lent no client');
  if (classifyDatabaseError(error)?.stored !== 'maybe') return error;
  return Object.assign(new Error(`could not connect to PostgreSQL: ${error.message}`, { cause: error }), { code: UNABLE_TO_CONNECT });
}

/**
 * The lending of a pool of ours, shared by Kysely's path ({@link statementPool}) and the direct
 * path (pool-runner.ts): pg-pool's documented callback form, each pg client wrapped in one
 * {@link StatementClient} for its whole life, so both paths see the same client state.
 */
export function lender(pool: pg.Pool, statements: PoolStatements): Lend {
  const wrapped = new WeakMap<pg.PoolClient, StatementClient>();
  return (callback) => {
    pool.connect((error, connected) => {
      if (error || connected === undefined) return callback(connectError(error), undefined);
      const client = guardClient(connected);
      let statementClient = wrapped.get(client);
      if (statementClient === undefined) wrapped.set(client, (statementClient = new StatementClient(client, statements)));
      callback(undefined, statementClient.lent());
    });
  };
}

/**
 * What Kysely's PostgresDialect sees of a pool of ours (its structural `PostgresPool`): clients
 * wrapped in a {@link StatementClient}, one per pg client so Kysely keeps one connection object per
 * client. `end()` ends the pool once, whoever asks first (Kysely's driver, or the database
 * object's `destroy()` when only the statement runner used the pool), and stops its deadlines' timer.
 */
export function statementPool(
  pool: Pick<pg.Pool, 'end' | 'options'>,
  lend: Lend,
  deadlines?: StatementDeadlines,
  writes?: ServerBound,
): PostgresPool & { end(): Promise<void> } {
  let ended: Promise<void> | undefined;
  return {
    connect() {
      // One promise of ours around pg-pool's callback form: an async function awaiting pg-pool's
      // promise form costs more promise hops on every query.
      return lendClient(lend) as unknown as Promise<PostgresPoolClient>;
    },
    end: () => {
      deadlines?.close();
      writes?.close();
      return (ended ??= pool.end());
    },
    options: pool.options,
  };
}

/**
 * A view of a caller's Pool: queries reach its clients exactly as Kysely sends them (nothing named,
 * no row mode, its own parsers and settings), and `end()` does nothing, so `db.destroy()` leaves it
 * open.
 */
export function borrowedPool(pool: pg.Pool): PostgresPool {
  return { connect: async () => guardClient(await pool.connect()), end: async () => {}, options: pool.options };
}
