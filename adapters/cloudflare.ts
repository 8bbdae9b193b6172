// `petstore-router/cloudflare`: a whole Cloudflare Worker serving the store on PostgreSQL (through
// Hyperdrive, with `nodejs_compat`). Workers refuse an I/O object made in one request from being
// used in another, and refuse I/O, timers and random values at global scope: so everything that
// talks to the database is made inside the request that uses it and ended after its answer.
import { MAX_BODY_BYTES, type PetStoreOptions, createPetStore } from 'petstore-router';
import { checkWorkerConfigure, checkWorkerOptions, createPostgresDatabase } from 'petstore-router/pg';

/** What the Worker's `configure(env)` returns: `createPetStore`'s options, with `database` in place of `db`. */
export interface WorkerStoreOptions extends Omit<PetStoreOptions, 'db'> {
  /** A PostgreSQL connection string, usually `env.HYPERDRIVE.connectionString`. */
  database: string;
  /**
   * PostgreSQL connections one request may open. One request runs its statements one after the
   * other, so one is enough; Hyperdrive pools behind it (its local mode does not: 64 concurrent
   * requests open 64 connections, within PostgreSQL's default of 100).
   * @default 1
   */
  maxConnections?: number;
  /** As `createPostgresDatabase`'s option of that name. @default true */
  preparedStatements?: boolean;
}

/** The members of the Workers `ExecutionContext` this entry uses. */
export interface WorkerContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** A Worker's module export: `export default createWorker(...)`. */
export interface PetStoreWorker<Env> {
  fetch(request: Request, env: Env, ctx: WorkerContext): Promise<Response>;
}

/**
 * A Worker whose `fetch` answers every request with a pet store on PostgreSQL. `configure` is
 * called per request with the Worker's `env`. The database must be migrated beforehand
 * (`petstore-router migrate`): the Worker never migrates.
 *
 * Each request opens its own connection and ends it once the answer is out (`ctx.waitUntil`). A
 * body whose declared size the store refused unread (413) is cancelled: the runtime would otherwise
 * wait for all of it before sending the answer, and a client that waits for the answer first hangs.
 *
 * @example
 * ```ts
 * // worker.ts, with `compatibility_flags = ["nodejs_compat"]` and a [[hyperdrive]] binding HYPERDRIVE
 * import { createWorker } from 'petstore-router/cloudflare'
 *
 * export default createWorker((env: { HYPERDRIVE: { connectionString: string }; PETSTORE_API_KEYS: string }) => ({
 *   database: env.HYPERDRIVE.connectionString,
 *   keys: env.PETSTORE_API_KEYS.split(','),
 * }))
 * ```
 */
export function createWorker<Env>(configure: (env: Env) => WorkerStoreOptions): PetStoreWorker<Env> {
  checkWorkerConfigure(configure);
  return {
    async fetch(request, env, ctx) {
      const configured = configure(env);
      checkWorkerOptions(configured);
      const { database, maxConnections = 1, preparedStatements, ...options } = configured;
      const db = await createPostgresDatabase({ connectionString: database, max: maxConnections }, { migrate: false, preparedStatements });
      try {
        return await createPetStore({ ...options, db }).fetch(request);
      } finally {
        if (declaredTooLarge(request)) ctx.waitUntil(request.body!.cancel().catch(() => {}));
        ctx.waitUntil(db.destroy());
      }
    },
  };
}

/**
 * An unread body declared larger than the store accepts. Only that one is cancelled: cancelling a
 * body the client is still sending makes `wrangler dev` reset the connection, while a body within
 * the limit is soon read to its end by the runtime.
 */
function declaredTooLarge(request: Request): boolean {
  if (request.body === null || request.bodyUsed || request.body.locked) return false;
  return Number(request.headers.get('content-length')) > MAX_BODY_BYTES;
}
