// The options of petstore-router/fastify's plugin: its own (`store`) and Fastify's register
// options, checked when Fastify registers it (the plugin hands the error to Fastify's `done`).
import { checkOptionNames, isObject, optionError } from './check.js';
import { type StoreLike, checkStore } from './store-like.js';

const WHERE = 'petStorePlugin';
/** The plugin's option and Fastify's register options (`RegisterOptions` of fastify/types/register.d.ts). */
const NAMES = ['store', 'prefix', 'logLevel', 'logSerializers'];
const HINT = 'app.register(petStorePlugin, { store: createPetStore(...) })';

/**
 * The store and the path of its routes under the plugin's `prefix` (`/v1` for basePath `/api/v1`
 * under `/api`); throws a TypeError for a wrong option, or a prefix the base path is not under.
 */
export function checkPetStorePluginOptions(options: unknown, prefix: string): { store: StoreLike; path: string } {
  if (!isObject(options)) throw optionError(WHERE, 'options', 'an object { store }', options, HINT);
  checkOptionNames(WHERE, options, NAMES);
  const store = checkStore(WHERE, 'options.store', options.store, HINT);
  const { basePath } = store;
  if (prefix === '' || basePath === prefix || basePath.startsWith(`${prefix}/`)) return { store, path: basePath.slice(prefix.length) };
  throw optionError(
    WHERE,
    'the prefix',
    `the start of the store's basePath ${JSON.stringify(basePath)}`,
    prefix,
    `create the store with basePath: ${JSON.stringify(prefix + basePath)} (the store writes Location and Link from it)`,
    JSON.stringify(prefix),
  );
}
