// The arguments of createPostgresDatabase, checked before anything connects: a wrong source fails
// at once, synchronously, with a message that names it and what to pass, instead of a pool that
// fails at the first query (or a destructuring error from inside pg).
import pg from 'pg';
import { checkOptionNames, isThenable, optionError } from '../../option-value.js';
import type { OpenOptions } from './database.js';
import { hostList } from './hosts-url.js';

const WHERE = 'createPostgresDatabase';
const EXPECTED = 'a PostgreSQL URL (postgres://user:password@host:5432/database), a pg.PoolConfig or a pg.Pool';
const URL_SCHEMES = new Set(['postgres:', 'postgresql:', 'socket:']);
/** Every option's name (the `satisfies` keeps the list equal to the options' type). */
const OPTION_NAMES = Object.keys({
  migrate: true,
  preparedStatements: true,
  readReplicas: true,
  maxReplicaLagMs: true,
  maxWaitMs: true,
} satisfies Record<keyof OpenOptions | 'migrate', true>);

/** Throws a TypeError unless `source` and `options` are what createPostgresDatabase takes. */
export function checkPostgresArguments(source: unknown, options: unknown): void {
  if (typeof source === 'string') checkUrl(source, 'source');
  else if (source instanceof pg.Pool) {
    // a Pool of the same pg: used as it is
  } else if (isPlainConfig(source)) {
    if (source.connectionString !== undefined) {
      if (typeof source.connectionString !== 'string')
        throw optionError(WHERE, 'config.connectionString', 'a PostgreSQL URL', source.connectionString);
      checkUrl(source.connectionString, 'config.connectionString');
    }
  } else {
    const [got, hint] = wrongSource(source);
    throw optionError(WHERE, 'source', EXPECTED, source, hint, got);
  }
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw optionError(
      WHERE,
      'options',
      'an object { migrate?, preparedStatements?, readReplicas?, maxReplicaLagMs?, maxWaitMs? }',
      options,
    );
  }
  checkOptionNames(WHERE, options, OPTION_NAMES);
  for (const name of ['migrate', 'preparedStatements'] as const) {
    const value = (options as Record<string, unknown>)[name];
    if (value !== undefined && typeof value !== 'boolean') throw optionError(WHERE, `options.${name}`, 'true or false', value);
  }
  // A replica's multi-host URL (hosts-url.ts): a wrong list or parameter throws here too, naming the option.
  const replicas = (options as { readReplicas?: unknown }).readReplicas;
  if (Array.isArray(replicas)) for (const r of replicas as unknown[]) if (typeof r === 'string') hostList(r, 'options.readReplicas');
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
    throw new TypeError(
      `petstore-router: ${WHERE}: ${name} must be a postgres:// or postgresql:// URL (got a ${scheme} URL): petstore-router runs on PostgreSQL only; for an embedded database use createPGliteDatabase() from 'petstore-router/pglite'`,
    );
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
