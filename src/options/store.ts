// The options of createPetStore, checked once at creation: a wrong value fails here, synchronously,
// with a message that names the option and what to pass, never later as a 500 or a TypeError from
// deep inside. Each option's own file (keys, cors, rate-limit, concurrency, schema) checks its parts.
import { checkOptionNames, checkerOf, isObject, optionError } from './check.js';
import { checkConcurrency } from './concurrency.js';
import { checkCors } from './cors.js';
import { checkDatabase, isKysely } from './database.js';
import { type KeysOption, checkKeysShape } from './keys.js';
import { checkRateLimit } from './rate-limit.js';
import { checkSchemaName } from './schema.js';

const WHERE = 'createPetStore';
const check = checkerOf(WHERE);

/** Every option's name; store.ts keeps it equal to PetStoreOptions' keys. Any other name is refused. */
export const STORE_OPTION_NAMES = [
  'db',
  'schema',
  'keys',
  'basePath',
  'now',
  'deprecatedAt',
  'sunsetAt',
  'idempotencyTtlMs',
  'openapi',
  'rateLimit',
  'docs',
  'onError',
  'health',
  'cors',
  'onResponse',
  'createResponse',
  'concurrency',
  'batchCreates',
  'serverTiming',
  'openTelemetry',
] as const;

/**
 * Checks `options` and returns them with `keys` as a list or a verifier (a single string key is
 * taken as a list of that key) and `basePath` normalised (no trailing slash). Throws a TypeError
 * naming the first wrong option, as the options of `where` (an entry that passes them on).
 */
export function checkStoreOptions<T extends object>(
  options: T,
  names: readonly string[] = STORE_OPTION_NAMES,
): Omit<T, 'keys'> & { keys: KeysOption; basePath: string } {
  if (!isObject(options)) {
    throw optionError(
      WHERE,
      'options',
      'an object { db, keys, ... }',
      options,
      'createPetStore({ db: await createPGliteDatabase(), keys: [key] })',
    );
  }
  const o = options as Record<string, unknown>;
  checkOptionNames(WHERE, o, names);
  checkDatabase(o.db);
  const keys = checkKeysShape(o.keys);
  if (o.schema !== undefined) checkSchemaName(o.schema, WHERE);
  check('basePath', o.basePath, isBasePath, "a path such as '/v1' (starting with '/', no ? # or space), or '' for the root");
  check('now', o.now, (v) => typeof v === 'function', 'a function returning a Date, e.g. () => new Date()');
  check('deprecatedAt', o.deprecatedAt, isValidDate, 'a valid Date, e.g. new Date("2026-11-21T00:00:00Z")');
  check('sunsetAt', o.sunsetAt, isValidDate, 'a valid Date, e.g. new Date("2030-12-05T00:00:00Z")');
  check(
    'idempotencyTtlMs',
    o.idempotencyTtlMs,
    (v) => typeof v === 'number' && Number.isFinite(v) && v > 0,
    'a positive number of milliseconds',
  );
  check('openapi', o.openapi, (v) => typeof v === 'boolean' || isOpenApiObject(v), 'true, false or { servers: [{ url }] }');
  if (isObject(o.openapi)) checkOptionNames(WHERE, o.openapi, ['servers'], 'options.openapi');
  if (o.rateLimit !== undefined && o.rateLimit !== false) checkRateLimit(o.rateLimit);
  check(
    'docs',
    o.docs,
    (v) => v === false || (isObject(v) && typeof v.page === 'function' && typeof v.asset === 'function'),
    "apiReference() from 'petstore-router/docs', or false",
    "import { apiReference } from 'petstore-router/docs' and pass `docs: apiReference()` (the renderer lives in that entry)",
  );
  check('onError', o.onError, (v) => typeof v === 'function', 'a function (error, request, context) => void');
  check('health', o.health, (v) => typeof v === 'boolean' || isObject(v), 'true, false or { draining: () => boolean, db }');
  if (isObject(o.health)) {
    checkOptionNames(WHERE, o.health, ['draining', 'db'], 'options.health');
    check('health.draining', o.health.draining, (v) => typeof v === 'function', 'a function () => boolean');
    check('health.db', o.health.db, isKysely, 'a Kysely instance (for the health query alone)');
  }
  if (o.cors !== undefined) checkCors(o.cors);
  if (o.concurrency !== undefined) checkConcurrency(o.concurrency as object);
  check('onResponse', o.onResponse, (v) => typeof v === 'function', 'a function (event) => void');
  check('batchCreates', o.batchCreates, (v) => typeof v === 'boolean', 'true or false');
  check('createResponse', o.createResponse, (v) => typeof v === 'function', 'a function (text, status, headers) => Response');
  check('serverTiming', o.serverTiming, (v) => typeof v === 'boolean', 'true or false');
  check(
    'openTelemetry',
    o.openTelemetry,
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      ['trace', 'context', 'propagation', 'metrics'].every((k) => Boolean((v as Record<string, unknown>)[k])),
    "the @opentelemetry/api module: import * as otel from '@opentelemetry/api'",
  );
  if (o.docs && o.openapi === false) {
    throw optionError(
      WHERE,
      'options.docs',
      'absent or false with options.openapi: false',
      o.docs,
      'the page renders the OpenAPI document: drop one',
    );
  }
  const basePath = typeof o.basePath === 'string' ? o.basePath.replace(/\/+$/, '') : '/v1';
  return { ...options, keys, basePath };
}

/** '' or a path from '/', without query, fragment or space (trailing slashes are dropped). */
function isBasePath(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const trimmed = value.replace(/\/+$/, '');
  return trimmed === '' || (trimmed.startsWith('/') && !/[?#\s]/.test(trimmed));
}

function isValidDate(value: unknown): boolean {
  return value instanceof Date && !Number.isNaN(value.getTime());
}

function isOpenApiObject(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { servers } = value;
  return servers === undefined || (Array.isArray(servers) && servers.every((s) => isObject(s) && typeof s.url === 'string'));
}
