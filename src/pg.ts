// `petstore-router/pg`: PostgreSQL through node-postgres, for production and scale-out.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './storage/database.js';
import { migrateOrDestroy } from './storage/migrate.js';
import { wantsArrayRows } from './storage/prepared.js';

const INT8_OID = 20;

/** Options of {@link createPostgresDatabase}. */
export interface PostgresDatabaseOptions {
  /**
   * Apply petstore-router's migrations before returning (safe when several processes start at once).
   * @default true
   */
  migrate?: boolean;
}

/**
 * A Kysely database on PostgreSQL, migrated.
 *
 * - A URL or a `pg.PoolConfig`: a Pool is created with safe defaults (connect timeout 5 s,
 *   statement timeout 10 s, int8 parsed as bigint for this pool only, never through pg's global
 *   type parsers) and `db.destroy()` ends it.
 * - A `pg.Pool` you created: it stays yours (its parsers and settings are untouched; rows are
 *   normalised in our repositories) and `db.destroy()` does not end it.
 *
 * @example
 * ```ts
 * import { createPostgresDatabase } from 'petstore-router/pg'
 * const db = await createPostgresDatabase(process.env.DATABASE_URL!)
 * ```
 */
export async function createPostgresDatabase(
  source: string | pg.PoolConfig | pg.Pool,
  options: PostgresDatabaseOptions = {},
): Promise<Kysely<Database>> {
  const pool = source instanceof pg.Pool ? borrowed(source) : ownPool(typeof source === 'string' ? { connectionString: source } : source);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return options.migrate === false ? db : migrateOrDestroy(db);
}

function ownPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({
    connectionTimeoutMillis: 5_000,
    statement_timeout: 10_000,
    ...config,
    types: config.types ?? {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (v: string) => BigInt(v) : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
    },
  });
  // An idle client losing its connection (database restart) emits 'error' on the pool; without a
  // listener that would crash the process. The pool drops the client and reconnects on demand.
  pool.on('error', (error) => console.warn(`petstore-router: idle PostgreSQL connection lost: ${error.message}`));
  pool.on('connect', (client) => nameStatements(guardClient(client)));
  return pool;
}

/** Distinct statements named per process; past this, statements go unnamed (as before). */
const MAX_NAMED_STATEMENTS = 256;
const statementNames = new Map<string, string>();

/**
 * Names the parameterised statements of a pool we own by their SQL text, so each connection has
 * PostgreSQL parse and plan them once and then only binds and executes (Kysely's pg dialect sends
 * unnamed statements, parsed and planned on every query: 1.5-2.3x PostgreSQL's CPU per query on
 * these machines, docs/performance.md). Only statements with parameters (or our own, tagged:
 * storage/prepared.ts), one statement, and no `*`: a prepared `select *` would fail ("cached
 * plan must not change result type") once a migration adds a column under a running server. A
 * caller's own Pool is left alone.
 */
function nameStatements(client: pg.PoolClient): void {
  const query = client.query as (...args: unknown[]) => unknown;
  client.query = function (this: pg.PoolClient, ...args: unknown[]) {
    const [text, values] = args;
    if (typeof text === 'string' && Array.isArray(values) && args.length === 2) {
      let name: string | undefined;
      const arrays = wantsArrayRows(values);
      // Our own statements (tagged) are named even without parameters: a page statement's limit
      // is a constant in its text (storage/page-rows.ts). Other parameterless text may be anything
      // (BEGIN, DDL, SET) and goes unnamed, as before.
      if (values.length > 0 || arrays) {
        name = statementNames.get(text);
        if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS && !text.includes('*') && !text.includes(';')) {
          name = `petstore_${statementNames.size}`;
          statementNames.set(text, name);
        }
      }
      if (name !== undefined || arrays) {
        return new Promise((resolve, reject) => {
          const callback = (error: Error | undefined, result: unknown) => (error ? reject(error) : resolve(result));
          query.call(this, submittable(text, values, name, arrays, callback));
        });
      }
    }
    return query.apply(this, args);
  } as typeof client.query;
}

/** pg's private fields that decide a Query's row mode (pg 8.x: lib/query.js and lib/result.js). */
interface RowModeFields {
  _rowMode: string | undefined;
  _result: pg.Result;
  _results: pg.Result;
  types: typeof pg.types;
}

/** Whether this pg's Query has the row-mode fields we set (checked once; else the config path). */
const rowModeFieldsWork = (() => {
  const probe = new pg.Query('select 1') as unknown as Partial<RowModeFields>;
  return '_rowMode' in probe && probe._result instanceof pg.Result && probe._results === probe._result;
})();

/**
 * A pg.Query built from the text, not from a config object: pg clones a config object property by
 * property (2 us per query measured, 2% of the server's CPU in a profile). Array rows (pg's
 * documented `rowMode: 'array'`) are set on the Query's two private fields when this pg has them,
 * else through the documented config object.
 */
function submittable(
  text: string,
  values: unknown[],
  name: string | undefined,
  arrays: boolean,
  callback: (error: Error | undefined, result: unknown) => void,
): pg.Query {
  if (arrays && !rowModeFieldsWork) {
    return new pg.Query({ text, values, rowMode: 'array', callback, ...(name === undefined ? {} : { name }) } as pg.QueryConfig);
  }
  const submitted = new pg.Query(text, values as never, callback as never);
  if (name !== undefined) (submitted as pg.Query & { name?: string }).name = name;
  if (arrays) {
    const fields = submitted as unknown as RowModeFields;
    fields._rowMode = 'array';
    fields._result = fields._results = new pg.Result('array', fields.types);
  }
  return submitted;
}

const guarded = new WeakSet<pg.Client>();

/**
 * pg-pool removes its own 'error' listener from a client while the client is lent out, so a
 * connection lost between two queries of a checked-out client (PostgreSQL stopped, a network
 * reset) emitted an unhandled 'error' and crashed the process. Nothing else needs doing: the next
 * query on that client fails (answered 503), and the pool discards the client on release because
 * it is no longer queryable.
 */
function guardClient<C extends pg.Client | pg.PoolClient>(client: C): C {
  if (!guarded.has(client)) {
    guarded.add(client);
    client.on('error', () => {});
  }
  return client;
}

/** A view of a caller's Pool whose `end()` does nothing, so `db.destroy()` leaves it open. */
function borrowed(pool: pg.Pool) {
  // `options` and `Client` let Kysely open its control connection for query cancellation.
  const { options, Client } = pool as pg.Pool & { options: object; Client?: new (options: any) => pg.Client };
  return { connect: async () => guardClient(await pool.connect()), end: async () => {}, options, Client };
}
