// The options of createPetStore, checked once at creation: a wrong value fails here, synchronously,
// with a message that names the option and what to pass, never later as a 500 or a TypeError from
// deep inside. Checks that belong to one feature (keys, CORS, rate limits, schema names) stay with
// that feature; this file checks the shape of each option and what a newcomer is likely to pass.
import type { KeysOption } from './pipeline/auth.js';
import { checkOptionNames, isThenable, optionError } from './option-value.js';

const WHERE = 'createPetStore';

/** `keys` as `createPetStore` accepts it: one key is the same as a list of that key. */
export type KeysInput = string | KeysOption;

/**
 * Checks `options` and returns them with `keys` as a list or a verifier (a single string key is
 * taken as a list of that key). Throws a TypeError naming the first wrong option.
 */
export function checkOptions<T extends { keys: KeysInput }>(options: T, names: readonly string[]): Omit<T, 'keys'> & { keys: KeysOption } {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
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
  const keys = checkKeys(o.keys);
  checkOption(o, 'basePath', (v) => typeof v === 'string', "a string path such as '/v1' or ''");
  checkOption(o, 'now', (v) => typeof v === 'function', 'a function returning a Date, e.g. () => new Date()');
  checkOption(o, 'deprecatedAt', isValidDate, 'a valid Date, e.g. new Date("2026-11-21T00:00:00Z")');
  checkOption(o, 'sunsetAt', isValidDate, 'a valid Date, e.g. new Date("2030-12-05T00:00:00Z")');
  checkOption(o, 'idempotencyTtlMs', (v) => typeof v === 'number' && Number.isFinite(v) && v > 0, 'a positive number of milliseconds');
  checkOption(o, 'openapi', (v) => typeof v === 'boolean' || isOpenApiObject(v), 'true, false or { servers: [{ url }] }');
  checkOption(o, 'rateLimit', (v) => v === false || isObject(v), 'an object { limit, windowSeconds }, or absent for no limit');
  checkOption(
    o,
    'docs',
    (v) => v === false || (isObject(v) && typeof v.page === 'function' && typeof v.asset === 'function'),
    "apiReference() from 'petstore-router/docs', or false",
    "import { apiReference } from 'petstore-router/docs' and pass `docs: apiReference()` (the renderer lives in that entry)",
  );
  checkOption(o, 'onError', (v) => typeof v === 'function', 'a function (error, request, context) => void');
  checkOption(
    o,
    'health',
    (v) => typeof v === 'boolean' || (isObject(v) && optional(v.draining, 'function')),
    'true, false or { draining: () => boolean }',
  );
  checkOption(o, 'cors', isObject, "an object { origins: ['https://app.example'] | '*' }, or absent for no CORS");
  checkOption(o, 'onResponse', (v) => typeof v === 'function', 'a function (event) => void');
  checkOption(o, 'batchCreates', (v) => typeof v === 'boolean', 'true or false');
  checkOption(o, 'createResponse', (v) => typeof v === 'function', 'a function (text, status, headers) => Response');
  checkOption(o, 'serverTiming', (v) => typeof v === 'boolean', 'true or false');
  if (o.docs && o.openapi === false) {
    throw optionError(
      WHERE,
      'options.docs',
      'absent or false with options.openapi: false',
      o.docs,
      'the page renders the OpenAPI document: drop one',
    );
  }
  return { ...options, keys };
}

/** `db` must be a Kysely instance; for what newcomers pass instead, the message says how to get one. */
function checkDatabase(db: unknown): void {
  if (isObject(db) && ['selectFrom', 'executeQuery', 'withSchema', 'transaction', 'destroy'].every((m) => typeof db[m] === 'function'))
    return;
  const [got, hint] = wrongDatabase(db);
  throw optionError(WHERE, 'options.db', 'a Kysely instance', db, hint, got);
}

/** What a wrong `db` is (by shape: bundled class names are minified) and what to pass instead. */
function wrongDatabase(db: unknown): [got: string | undefined, hint: string] {
  const pglite = "pass `await createPGliteDatabase()` from 'petstore-router/pglite'";
  const postgres = "`await createPostgresDatabase(process.env.DATABASE_URL)` from 'petstore-router/pg'";
  if (db === undefined || db === null) return [undefined, `${pglite} (embedded) or ${postgres}`];
  if (typeof db === 'string') {
    return [undefined, `for a PostgreSQL URL pass ${postgres}; for PGlite on disk, \`await createPGliteDatabase({ dataDir })\``];
  }
  if (isObject(db) && typeof db.exec === 'function' && 'waitReady' in db) {
    return ['a PGlite', "wrap your PGlite: `await createPGliteDatabase({ pglite })` from 'petstore-router/pglite' (it stays yours)"];
  }
  if (isObject(db) && typeof db.connect === 'function' && typeof db.query === 'function') {
    return 'totalCount' in db
      ? ['a pg.Pool', "wrap your pg.Pool: `await createPostgresDatabase(pool)` from 'petstore-router/pg' (it stays yours)"]
      : ['a pg.Client', `pass a pg.Pool or a URL instead of a client: ${postgres}`];
  }
  return [undefined, `${pglite} or ${postgres}, or your own \`new Kysely(...)\` after \`await migrate(db)\``];
}

function checkKeys(keys: unknown): KeysOption {
  if (typeof keys === 'string') return [keys]; // one key: a list of one (checked with the others in http/auth.ts)
  if (Array.isArray(keys) || typeof keys === 'function') return keys as KeysOption;
  throw optionError(
    WHERE,
    'options.keys',
    'a key, a list of keys or a verifier (key, request) => boolean',
    keys,
    isThenable(keys) ? undefined : "e.g. keys: [process.env.API_KEY] or keys: ['sha256:<hex>']",
  );
}

/** Throws unless `options[name]` is absent (undefined) or passes `ok`. */
function checkOption(
  options: Record<string, unknown>,
  name: string,
  ok: (value: unknown) => boolean,
  expected: string,
  hint?: string,
): void {
  const value = options[name];
  if (value !== undefined && !ok(value)) throw optionError(WHERE, `options.${name}`, expected, value, hint);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isThenable(value);
}

function optional(value: unknown, type: 'function'): boolean {
  return value === undefined || typeof value === type;
}

function isValidDate(value: unknown): boolean {
  return value instanceof Date && !Number.isNaN(value.getTime());
}

function isOpenApiObject(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { servers } = value;
  return servers === undefined || (Array.isArray(servers) && servers.every((s) => isObject(s) && typeof s.url === 'string'));
}
