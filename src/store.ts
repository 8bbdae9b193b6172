import type { Kysely } from 'kysely';
import type { StoreContext } from './routes/context.js';
import type { PetStoreDatabase } from './drivers/contract.js';
import { contractOf } from './drivers/database.js';
import { DEFAULT_DEPRECATED_AT, DEFAULT_SUNSET_AT } from './deprecation.js';
import { createAuthenticator } from './pipeline/auth.js';
import { type CorsOptions, createCors } from './pipeline/cors.js';
import type { ErrorContext, OnResponse, ResponseEvent } from './pipeline/on-response.js';
import { createPipeline } from './pipeline/pipeline.js';
import { type ResponseFactory, standardResponse } from './http/answer.js';
import { type RateLimitOptions, createRateLimiter } from './pipeline/rate-limit.js';
import { docsRoutes } from './docs/route.js';
import type { ApiReference } from './docs/types.js';
import { openApiRoute } from './openapi/route.js';
import type { OpenApiServer } from './openapi-types.js';
import { type HealthOptions, healthRoute } from './routes/health.js';
import { Admission, type ConcurrencyOptions } from './pipeline/shed.js';
import { observing } from './pipeline/observe.js';
import { type OpenTelemetryApi, Telemetry } from './pipeline/tracing.js';
import { type StoreFetch, acceptingUrls } from './http/fetch-input.js';
import { routes } from './routes/table.js';
import type { AnyDatabase, Database } from './storage/database.js';
import { DEFAULT_IDEMPOTENCY_TTL_MS } from './storage/idempotency.js';
import { createRepositories } from './storage/repositories.js';
import { createDefaultOnError } from './pipeline/error-log.js';
import type { KeysInput } from './options/keys.js';
import { STORE_OPTION_NAMES, checkStoreOptions } from './options/store.js';

/** Options of {@link createPetStore}. */
export interface PetStoreOptions {
  /**
   * The database, already migrated: from `createPGliteDatabase()` (`petstore-router/pglite`),
   * `createPostgresDatabase()` (`petstore-router/pg`), or your own Kysely instance after
   * `await migrate(db)`, or another driver's database contract (`PetStoreDatabase`). The store
   * never closes it: whoever created it calls `db.destroy()`.
   */
  db: AnyDatabase;
  /**
   * The PostgreSQL schema holding petstore-router's tables, migrated with the same option
   * (`await migrate(db, { schema })`). Keeps our tables in a schema of your database of their
   * own, or gives several stores one database each with its own data. Omitted: unqualified names,
   * resolved by the connection's `search_path` (normally `public`). See docs/testing.md.
   * @example
   * ```ts
   * await migrate(db, { schema: 'petstore' })
   * const store = createPetStore({ db, schema: 'petstore', keys })
   * ```
   */
  schema?: string;
  /**
   * Accepted API keys: plain keys or `sha256:<hex>` digests, or an async verifier
   * `(key, request) => boolean`. Several keys may be valid at once, for rotation. One key alone
   * (a string) is the same as a list of that key.
   * @example
   * ```ts
   * createPetStore({ db, keys: [process.env.API_KEY!, 'sha256:<hex of the previous key>'] })
   * ```
   */
  keys: KeysInput;
  /**
   * Path prefix of every operation. `''` serves at the root.
   * @default '/v1'
   */
  basePath?: string;
  /**
   * The clock, for everything time-dependent (deprecation, sunset).
   * @default () => new Date()
   */
  now?: () => Date;
  /**
   * When `GET /pets/{petId}` was deprecated (the `Deprecation` header).
   * @default new Date('2026-11-21T00:00:00Z')
   */
  deprecatedAt?: Date;
  /**
   * When `GET /pets/{petId}` stops working (the `Sunset` header; 410 from then on).
   * @default new Date('2030-12-05T00:00:00Z')
   */
  sunsetAt?: Date;
  /**
   * How long an `Idempotency-Key` of `POST /pets` is remembered (per API key): a retry with the
   * same key within this time replays the first answer instead of adding a second pet. Judged by
   * `now`. See docs/reliability.md.
   * @default 86_400_000 (24 hours)
   * @example
   * ```ts
   * createPetStore({ db, keys, idempotencyTtlMs: 60 * 60 * 1000 }) // one hour
   * ```
   */
  idempotencyTtlMs?: number;
  /**
   * Serve the API's OpenAPI 3.1 document at `GET {basePath}/openapi.json`, without a key. Built
   * once, on its first request. `false` turns it off (the path is then an ordinary authenticated 404); an object
   * sets the document's `servers` (default: one relative server, `.`, which resolves against the
   * document's own URL to `{prefix}{basePath}`: wherever the store is mounted, see docs/mounting.md).
   * @default true
   * @example
   * ```ts
   * createPetStore({ db, keys, openapi: { servers: [{ url: 'https://api.example.org/v1' }] } })
   * ```
   */
  openapi?: boolean | { servers?: OpenApiServer[] };
  /**
   * Per-key rate limit over every operation (after authentication; a 401 is never counted), in
   * fixed windows counted in the database, so every process on one database shares the count.
   * Answers carry `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-11);
   * over the limit: 429, Error code `rate_limited`, `Retry-After`. Each counted request costs one
   * extra database round trip (docs/http-features.md). Off when absent.
   * @example
   * ```ts
   * createPetStore({ db, keys, rateLimit: { limit: 100, windowSeconds: 60 } })
   * ```
   */
  rateLimit?: RateLimitOptions;
  /**
   * The API reference page at `GET {basePath}/docs`, without a key: pass `apiReference()` from
   * `petstore-router/docs` (the renderer lives in that entry, so a store without it carries none
   * of it). It renders the document of `GET {basePath}/openapi.json`, so it needs `openapi` on.
   * `false` or absent: no page (the path is then an ordinary authenticated 404).
   * @default false
   * @example
   * ```ts
   * import { apiReference } from 'petstore-router/docs'
   * createPetStore({ db, keys, docs: apiReference() })
   * ```
   */
  docs?: ApiReference | false;
  /**
   * Called with every error answered as 500 or 503 (the client sees a masked message), and with
   * whatever `onResponse` throws; `context.requestId` is the answer's `X-Request-Id`.
   * @default logs to console.error: an operational failure (not migrated, a refused login, the
   * database unreachable or too slow) as one line per cause naming the fix, then a count at most
   * once a minute; anything else whole, with the request id; nothing for a closed database
   */
  onError?: (error: unknown, request: Request, context: ErrorContext) => void;
  /**
   * Serve `GET {basePath}/health` (and HEAD) without a key: 200 `application/health+json`
   * `{"status":"pass"}` when the database answers within 1 s, else 503 `fail` with Retry-After.
   * `false` turns it off (the path is then an ordinary authenticated 404); `draining` makes it
   * answer 503 while your server shuts down. See docs/operations.md.
   * @default true
   * @example
   * ```ts
   * let draining = false
   * process.once('SIGTERM', () => { draining = true; server.close() })
   * createPetStore({ db, keys, health: { draining: () => draining } })
   * ```
   */
  health?: boolean | HealthOptions;
  /**
   * Cross-origin access for browser apps on other origins (off by default): preflights from an
   * allowed origin are answered 204 before authentication, and every answer to one (errors
   * included) carries `Access-Control-Allow-Origin` and exposes the store's headers. Never
   * `Access-Control-Allow-Credentials`. See docs/operations.md.
   * @example
   * ```ts
   * createPetStore({ db, keys, cors: { origins: ['https://app.example'], maxAgeSeconds: 600 } })
   * ```
   */
  cors?: CorsOptions;
  /**
   * Called once per request after its response is built, with status, operation, route template,
   * duration, request id, key id (never the key) and, for a 5xx, the error: for your own access
   * log or metrics. It cannot change or delay the answer: a returned promise is not awaited, and
   * what it throws (or rejects with) goes to `onError`. Keep it cheap: it runs on the request's path.
   * @example
   * ```ts
   * createPetStore({ db, keys, onResponse: (e) => console.log(e.requestId, e.status, e.route, e.durationMs) })
   * ```
   */
  onResponse?: OnResponse;
  /**
   * How the store builds the Response of each JSON answer (every answer but the docs page, a 304
   * and a preflight): `(text, status, headers) => Response`, which must return a standard
   * `Response` reading as exactly those parts. A server adapter may offer one it writes faster:
   * `nodeResponse` from `petstore-router/node` is a lazy Response its bridge writes in one call.
   * @default a standard Response of the text, status and headers
   * @example
   * ```ts
   * import { nodeResponse } from 'petstore-router/node'
   * createPetStore({ db, keys, createResponse: nodeResponse })
   * ```
   */
  createResponse?: ResponseFactory;
  /**
   * Load shedding: at most `limit` requests do their work at once, counted from when the key is
   * checked and the body is in (a slow client holds no slot); up to `queue` more wait their turn
   * (at most `maxWaitMs`), freed slots going first to the key that holds the fewest; past that,
   * 503 `overloaded` with a `Retry-After` from the store's state now. Health, the OpenAPI document
   * and the docs page are never counted nor refused. Off when absent (the standalone server turns
   * it on: `--max-in-flight`). docs/operations.md, "Load shedding".
   * @example
   * ```ts
   * createPetStore({ db, keys, concurrency: { limit: 40, onShed: () => shedCounter.inc() } })
   * ```
   */
  concurrency?: ConcurrencyOptions;
  /**
   * Creates without an `Idempotency-Key` that arrive while others are being stored go to the
   * database together, at most 16 pets per insert statement, when the database is one
   * `createPostgresDatabase` made from a URL or config (its runner sends the store's statements;
   * not your own `pg.Pool`): fewer round trips and commits under load. Each create still gets its
   * own row, acknowledged once committed; a create that arrives while none runs is sent at once,
   * alone. A batch that fails for the database's reason answers 503 to every create in it (as
   * each alone would have been answered). `false` sends one statement per create, as does a store
   * with `serverTiming` or `openTelemetry` (a shared statement's time belongs to no one request).
   * See docs/decisions.md, "Storage".
   * @default true
   * @example
   * ```ts
   * createPetStore({ db, keys, batchCreates: false })
   * ```
   */
  batchCreates?: boolean;
  /**
   * Adds `Server-Timing: db;dur=…, total;dur=…` (milliseconds) to every answer: the time the
   * request's statements took, and its time in the store. Needs AsyncLocalStorage
   * (`node:async_hooks`). Creates are then not batched (`batchCreates`). See docs/operations.md.
   * @default false
   * @example
   * ```ts
   * createPetStore({ db, keys, serverTiming: true })
   * ```
   */
  serverTiming?: boolean;
  /**
   * OpenTelemetry: pass the `@opentelemetry/api` module (an optional peer: install it, and an SDK
   * to export). One SERVER span per request named `METHOD ROUTE` (`POST /v1/pets`) with the stable
   * HTTP attributes, continuing an incoming `traceparent`; a CLIENT span per statement
   * (`db.system.name` `postgresql`, `db.query.text` without values); the histogram
   * `http.server.request.duration`. No key, header or query string is ever recorded. Needs
   * AsyncLocalStorage (`node:async_hooks`). Creates are then not batched (`batchCreates`), so
   * each statement span belongs to its request. See docs/operations.md.
   * @example
   * ```ts
   * import * as otel from '@opentelemetry/api'
   * createPetStore({ db, keys, openTelemetry: otel })
   * ```
   */
  openTelemetry?: OpenTelemetryApi;
}

// STORE_OPTION_NAMES (options/store.ts) names exactly the options above: a name missing there, or
// there and not here, fails to compile.
type Named = (typeof STORE_OPTION_NAMES)[number];
const optionNamesMatch: [Named, keyof PetStoreOptions] extends [keyof PetStoreOptions, Named] ? true : never = true;
void optionNamesMatch;

/** The embedded API: pass `fetch` to any server that speaks web-standard Request/Response. */
export interface PetStore {
  /**
   * Serves one request and answers with a standard `Response`. Called like the global `fetch`
   * (a Request, or an absolute URL and `init`); after a Request, a runtime's own second argument
   * is ignored. Bound, so it can be passed around on its own (`Deno.serve(store.fetch)`; in Hono
   * `app.all('/v1/*', (c) => store.fetch(c.req.raw))`).
   *
   * @example
   * ```ts
   * const res = await store.fetch('http://localhost/v1/pets', {
   *   headers: { authorization: 'Bearer secret' },
   * })
   * ```
   */
  readonly fetch: StoreFetch;
  /** The resolved base path (`'/v1'` by default). */
  readonly basePath: string;
}

/**
 * Creates the pet store API on a Kysely database.
 *
 * @example
 * ```ts
 * import { createPetStore } from 'petstore-router'
 * import { createPGliteDatabase } from 'petstore-router/pglite'
 *
 * const store = createPetStore({ db: await createPGliteDatabase(), keys: ['secret'] })
 * const res = await store.fetch(new Request('http://localhost/v1/pets', {
 *   headers: { authorization: 'Bearer secret' },
 * }))
 * console.log(res.status, await res.json()) // 200 []
 * ```
 */
export function createPetStore(given: PetStoreOptions): PetStore {
  const options = checkStoreOptions(given);
  // The database contract, read once (drivers/contract.ts): a Kysely of the caller's own is its minimal form.
  const database = contractOf(options.db as Kysely<Database> | PetStoreDatabase<Database>);
  const schema = options.schema;
  // Not batched while statements are observed: a batch is no one request's statement, so
  // Server-Timing's `db` and the statement spans could not be attributed.
  const observesStatements = options.serverTiming === true || options.openTelemetry !== undefined;
  const store: StoreContext = {
    ...createRepositories(database, { schema, batchCreates: options.batchCreates !== false && !observesStatements }),
    now: options.now ?? (() => new Date()),
    basePath: options.basePath,
    deprecation: {
      // Copies: the store's policy is fixed at creation, whatever happens to the caller's Dates.
      deprecatedAt: new Date((options.deprecatedAt ?? DEFAULT_DEPRECATED_AT).getTime()),
      sunsetAt: new Date((options.sunsetAt ?? DEFAULT_SUNSET_AT).getTime()),
    },
    idempotencyTtlMs: options.idempotencyTtlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS,
  };
  const telemetry = options.openTelemetry === undefined ? undefined : new Telemetry(options.openTelemetry);
  const observation =
    options.serverTiming === true || telemetry ? observing({ serverTiming: options.serverTiming === true, telemetry }) : undefined;
  const onResponse = observation ? withObservation(observation.onResponse, options.onResponse) : options.onResponse;
  const handle = createPipeline({
    store,
    routes: routes.filter((route) => !route.public),
    publicRoutes: [
      ...routes.filter((route) => route.public),
      ...(options.openapi === false
        ? []
        : [openApiRoute({ ...store.deprecation, basePath: store.basePath, servers: openApiServers(options) })]),
      ...(options.docs ? docsRoutes(options.docs) : []),
      ...(options.health === false ? [] : [healthRoute(store, typeof options.health === 'object' ? options.health : {})]),
    ],
    authenticate: createAuthenticator(options.keys),
    rateLimit: options.rateLimit ? createRateLimiter(options.rateLimit, store.rateLimits, store.now) : undefined,
    onError: options.onError ?? createDefaultOnError(store.classify),
    cors: options.cors === undefined ? undefined : createCors(options.cors),
    onResponse,
    createResponse: options.createResponse ?? standardResponse,
    admission: options.concurrency === undefined ? undefined : new Admission(options.concurrency),
  });
  const serve = observation ? observation.wrap(handle) : handle;
  // Bound (a plain function); per request, only the input check of acceptingUrls runs before `serve`.
  return Object.freeze({
    fetch: acceptingUrls(serve),
    basePath: store.basePath,
  });
}

/** The observation's note of each answer, then the caller's `onResponse` (whose own errors the pipeline reports). */
function withObservation(note: (event: ResponseEvent) => void, onResponse: OnResponse | undefined): OnResponse {
  if (onResponse === undefined) return note;
  return (event) => {
    note(event);
    return onResponse(event);
  };
}

function openApiServers({ openapi }: Pick<PetStoreOptions, 'openapi'>): OpenApiServer[] | undefined {
  return typeof openapi === 'object' && openapi !== null ? openapi.servers : undefined;
}
