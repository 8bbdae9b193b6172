// The arguments of createPostgresDatabase, checked before anything connects: a wrong source fails
// at once, synchronously, with a message that names it and what to pass, instead of a pool that
// fails at the first query (or a destructuring error from inside pg). pg itself is the driver's to
// load: it tells whether a value is a Pool of the pg it loads (`isPool`).
import { checkOptionNames, checkerOf, isObject, isThenable, optionError } from './check.js';
import { hostList } from './hosts-url.js';

const WHERE = 'createPostgresDatabase';
const check = checkerOf(WHERE);
const EXPECTED = 'a PostgreSQL URL (postgres://user:password@host:5432/database), a pg.PoolConfig or a pg.Pool';
const URL_SCHEMES = new Set(['postgres:', 'postgresql:', 'socket:']);
/** Every option's name (src/pg.ts keeps it equal to PostgresDatabaseOptions' keys). */
export const POSTGRES_OPTION_NAMES = [
  'migrate',
  'preparedStatements',
  'sessionStatementTimeout',
  'readReplicas',
  'maxReplicaLagMs',
  'maxWaitMs',
] as const;

/** Throws a TypeError unless `source` and `options` are what createPostgresDatabase takes. */
export function checkPostgresArguments(source: unknown, options: unknown, isPool: (value: unknown) => boolean): void {
  if (typeof source === 'string') checkUrl(source, 'source');
  else if (isPool(source)) {
    // a Pool of the same pg: used as it is
  } else if (isPlainConfig(source)) {
    checkConfigUrl(source, 'config.connectionString');
  } else {
    const [got, hint] = wrongSource(source);
    throw optionError(WHERE, 'source', EXPECTED, source, hint, got);
  }
  if (options === undefined) return;
  if (!isObject(options)) throw optionError(WHERE, 'options', `an object { ${POSTGRES_OPTION_NAMES.join('?, ')}? }`, options);
  checkOptionNames(WHERE, options, POSTGRES_OPTION_NAMES);
  const { readReplicas, maxReplicaLagMs } = options;
  check('migrate', options.migrate, (v) => typeof v === 'boolean', 'true or false');
  check('preparedStatements', options.preparedStatements, (v) => typeof v === 'boolean', 'true or false');
  check('sessionStatementTimeout', options.sessionStatementTimeout, (v) => typeof v === 'boolean', 'true or false');
  check('maxWaitMs', options.maxWaitMs, (v) => Number.isInteger(v) && (v as number) >= 1, 'a positive whole number of milliseconds');
  check(
    'maxReplicaLagMs',
    maxReplicaLagMs,
    (v) => typeof v === 'number' && Number.isFinite(v) && v > 0,
    'a positive number of milliseconds',
  );
  const replica = (r: unknown) => (typeof r === 'string' && r.trim() !== '') || (isObject(r) && !isPool(r));
  check('readReplicas', readReplicas, (v) => Array.isArray(v) && v.every(replica), 'an array of replica URLs or pg.PoolConfig objects');
  if (readReplicas === undefined) return;
  if (isPool(source) && (readReplicas as unknown[]).length > 0) {
    throw optionError(
      WHERE,
      'options.readReplicas',
      'absent with a pg.Pool of yours',
      readReplicas,
      'pass the primary as a URL or pg.PoolConfig',
    );
  }
  // A replica's URL, multi-host or not (hosts-url.ts): a wrong list or parameter throws here, naming the option.
  for (const r of readReplicas as unknown[]) {
    if (typeof r === 'string') hostList(r, 'options.readReplicas');
    else checkConfigUrl(r as Record<string, unknown>, 'options.readReplicas');
  }
}

/** A config's `connectionString`, when it has one. */
function checkConfigUrl(config: Record<string, unknown>, name: string): void {
  const url = config.connectionString;
  if (url === undefined) return;
  if (typeof url !== 'string') throw optionError(WHERE, name, 'a PostgreSQL URL', url);
  checkUrl(url, name);
}

/** A URL pg can connect with; the message never repeats the URL (it may hold a password). */
function checkUrl(url: string, name: string): void {
  if (url.trim() === '') throw optionError(WHERE, name, EXPECTED, url, 'is DATABASE_URL set (and not empty)?');
  // A libpq multi-host URL (hosts-url.ts): its list and parameters checked, then its first host's URL.
  const first = hostList(url, name)?.urls[0] ?? url;
  let scheme: string;
  try {
    scheme = new URL(first).protocol;
  } catch {
    throw optionError(WHERE, name, EXPECTED, url, 'the string is not a URL; write it as postgres://user:password@host:5432/database');
  }
  if (!URL_SCHEMES.has(scheme)) {
    const hint =
      "petstore-router runs on PostgreSQL only; for an embedded database use createPGliteDatabase() from 'petstore-router/pglite'";
    throw optionError(WHERE, name, 'a postgres:// or postgresql:// URL', url, hint, `a ${scheme} URL`);
  }
}

/** What a wrong source is (by shape: bundled class names are minified) and what to pass instead. */
function wrongSource(source: unknown): [got: string | undefined, hint: string | undefined] {
  if (source === undefined || source === null)
    return [undefined, 'is DATABASE_URL set? e.g. createPostgresDatabase(process.env.DATABASE_URL!)'];
  if (isThenable(source) || typeof source !== 'object') return [undefined, undefined];
  const object = source as Record<string, unknown>;
  if (typeof object.selectFrom === 'function') {
    return ['a Kysely instance', 'it is a database already: pass it to createPetStore({ db }) after `await migrate(db)`'];
  }
  if (typeof object.exec === 'function' && 'waitReady' in object) {
    return ['a PGlite', "for a PGlite use `await createPGliteDatabase({ pglite })` from 'petstore-router/pglite'"];
  }
  if (typeof object.connect === 'function' && 'totalCount' in object) {
    return [
      'a pool of another copy of pg',
      'pass its connection settings (a pg.PoolConfig) or a Pool of the pg that petstore-router loads',
    ];
  }
  return [undefined, undefined];
}

/** A pg.PoolConfig: a plain object (not a class instance such as a Client or a PGlite). */
function isPlainConfig(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
