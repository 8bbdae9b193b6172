// The options of `petstore-router/cloudflare`: `createWorker(configure)` and what `configure(env)`
// returns (createPetStore's without `db`, with the database's connection string and pool size).
import { checkOptionNames, checkerOf, isObject, optionError } from './check.js';
import { STORE_OPTION_NAMES } from './store.js';

const WHERE = 'createWorker';
const check = checkerOf(WHERE);
const NAMES = [...STORE_OPTION_NAMES.filter((name) => name !== 'db'), 'database', 'maxConnections', 'preparedStatements'];

/** Throws unless `configure` is a function (env) => options. */
export function checkWorkerConfigure(configure: unknown): void {
  if (typeof configure !== 'function') {
    throw optionError(WHERE, 'configure', 'a function (env) => ({ database, keys, ... })', configure);
  }
}

/** Throws unless `options` (what configure(env) returned) are what a Worker takes; createPetStore checks the rest. */
export function checkWorkerOptions(options: unknown): void {
  if (!isObject(options)) throw optionError(WHERE, 'configure(env)', 'an object { database, keys, ... }', options);
  checkOptionNames(WHERE, options, NAMES);
  if (typeof options.database !== 'string' || options.database === '') {
    throw optionError(
      WHERE,
      'options.database',
      'a PostgreSQL connection string',
      options.database,
      'e.g. env.HYPERDRIVE.connectionString',
    );
  }
  check(
    'maxConnections',
    options.maxConnections,
    (v) => Number.isInteger(v) && (v as number) >= 1,
    'a positive whole number of connections',
  );
  check('preparedStatements', options.preparedStatements, (v) => typeof v === 'boolean', 'true or false');
}
