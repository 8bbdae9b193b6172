import type { Kysely } from 'kysely';
import type { StoreContext } from './context.js';
import { CLOSED_MESSAGE, NOT_MIGRATED_MESSAGE, RETRY_AFTER_SECONDS } from '../errors.js';
import { type JsonAnswer, jsonResponse } from '../http/answer.js';
import type { DatabaseFailure, ReplicaStatus } from '../storage/repositories.js';
import { type RouteDefinition, defineRoute } from './define.js';

/** Health checking of the store (option `health`). */
export interface HealthOptions {
  /**
   * Returns true while the server is shutting down (e.g. from SIGTERM until it exits): health then
   * answers 503 `fail`, so a load balancer stops sending new requests while in-flight ones finish.
   */
  draining?: () => boolean;
  /**
   * A database of its own for the health query, such as a one-connection pool on the same
   * PostgreSQL (`createPostgresDatabase({ connectionString, max: 1 }, { migrate: false })`), so a
   * probe never waits behind API requests for a connection of the store's pool. Its owner closes it.
   * @default the store's `db`
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: only `select 1` runs on it
  db?: Kysely<any>;
}

export const HEALTH_PATH = '/health';
export const HEALTH_OPERATION_ID = 'getHealth';

/** How long the database has to answer the health query. */
const DATABASE_BOUND_MS = 1_000;

const HEADERS = { 'content-type': 'application/health+json', 'cache-control': 'no-store' } as const;

/**
 * `GET {basePath}/health` (and HEAD), answered without a key (draft-inadarei-api-health-check):
 * 200 `pass` when the database answers a query naming every table of ours within 1 s (so a
 * database that is not migrated fails, saying how to migrate), else 503 `fail` with
 * Retry-After. Without a health database of its own (`options.db`) the query is a read (with read
 * replicas: the primary's WAL position, then a replica or the primary). Each read replica is listed
 * under `replica:lag`; one that is skipped makes the answer 200 `warn` (its reads run on the
 * primary, so the API works). Probes arriving while a query is out share it, so a hung database
 * never collects one stuck query per probe. The body names no host, SQL or error text.
 */
export function healthRoute(store: StoreContext, options: HealthOptions = {}): RouteDefinition {
  // The query itself is shared (not a probe's race against its timer): a probe that gave up after
  // 1 s leaves the query to the next probes instead of starting another one beside it.
  let inFlight: Promise<DatabaseCheck> | undefined;
  const checkDatabase = () => {
    inFlight ??= query(store, options.db).finally(() => (inFlight = undefined));
    return bounded(inFlight);
  };
  return defineRoute({
    method: 'GET',
    path: HEALTH_PATH,
    operationId: HEALTH_OPERATION_ID,
    summary: 'Health of the server and its database',
    description: 'Health of the server and its database (draft-inadarei-api-health-check), without a key.',
    tags: ['meta'],
    public: true,
    responses: {
      '200': { description: 'The database answered in time.', body: { type: 'object' }, mediaType: 'application/health+json' },
      '503': 'ServiceUnavailable',
    },
    handler: async () => {
      if (options.draining?.() === true) return fail('the server is shutting down');
      const check = await checkDatabase();
      if (check.status === 'fail') return fail(check.output);
      const time = store.now().toISOString();
      const replicas = store.health.replicas();
      return answer(200, {
        status: replicas.every((replica) => replica.state === 'up') ? 'pass' : 'warn',
        checks: {
          'database:responseTime': [{ componentType: 'datastore', observedValue: check.ms, observedUnit: 'ms', status: 'pass', time }],
          ...(replicas.length === 0 ? {} : { 'replica:lag': replicas.map((replica, i) => replicaCheck(replica, i, time)) }),
        },
      });
    },
  });
}

type DatabaseCheck = { status: 'pass'; ms: number } | { status: 'fail'; output: string };

/**
 * One read replica as a check: `pass` while reads may run on it, else `warn` with why. Named by
 * its place in the list (the answer is public: no host or database name).
 */
function replicaCheck(replica: ReplicaStatus, index: number, time: string): object {
  return {
    componentId: `replica-${index + 1}`,
    componentType: 'datastore',
    observedValue: replica.lagMs ?? null,
    observedUnit: 'ms',
    status: replica.state === 'up' ? 'pass' : 'warn',
    ...(replica.reason === undefined ? {} : { output: `${replica.state}: ${replica.reason}` }),
    time,
  };
}

/** The health query, timed; never rejects. */
function query(store: StoreContext, own: HealthOptions['db']): Promise<DatabaseCheck> {
  const started = performance.now();
  return store.health.ping(own).then(
    (): DatabaseCheck => ({ status: 'pass', ms: Math.round((performance.now() - started) * 10) / 10 }),
    (error: unknown): DatabaseCheck => ({ status: 'fail', output: failureOutput(store.classify(error)?.kind) }),
  );
}

/** What a failed check says: not migrated and closed say so and what to do, anything else is unavailable. */
function failureOutput(failure: DatabaseFailure['kind'] | undefined): string {
  return failure === 'not_migrated' ? NOT_MIGRATED_MESSAGE : failure === 'closed' ? CLOSED_MESSAGE : 'the database is unavailable';
}

/** `check`, or a fail once this probe has waited DATABASE_BOUND_MS for it. */
async function bounded(check: Promise<DatabaseCheck>): Promise<DatabaseCheck> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<DatabaseCheck>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'fail', output: 'the database did not answer within 1 s' }), DATABASE_BOUND_MS);
  });
  try {
    return await Promise.race([check, late]);
  } finally {
    clearTimeout(timer);
  }
}

function fail(output: string): JsonAnswer {
  return answer(503, { status: 'fail', output }, { 'retry-after': String(RETRY_AFTER_SECONDS) });
}

function answer(status: number, body: object, headers?: Record<string, string>): JsonAnswer {
  return jsonResponse(status, JSON.stringify(body), { ...HEADERS, ...headers });
}
