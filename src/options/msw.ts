// The arguments of petstore-router/msw's createHandlers(store, { baseUrl }), checked at creation.
import { checkOptionNames, isObject, optionError } from './check.js';
import { type StoreLike, checkStore, isStoreLike } from './store-like.js';

const WHERE = 'createHandlers';
const HINT = "e.g. { baseUrl: 'https://api.example.com' }";

/** The store (or the `.store` of a test store) and the parsed base URL; throws a TypeError for a wrong one. */
export function checkMswHandlersArguments(given: unknown, options: unknown): { store: StoreLike; base: URL } {
  const inner = isObject(given) ? given.store : undefined;
  const store = isStoreLike(inner) ? inner : checkStore(WHERE, 'store', given);
  if (!isObject(options)) throw optionError(WHERE, 'options', 'an object { baseUrl }', options, HINT);
  checkOptionNames(WHERE, options, ['baseUrl']);
  const { baseUrl } = options;
  const base = typeof baseUrl === 'string' && URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (base === undefined || base.search !== '' || base.hash !== '') {
    // The base URL of a mock is shown as given: it is where the app's own requests go, no secret.
    const got = typeof baseUrl === 'string' ? JSON.stringify(baseUrl) : undefined;
    throw optionError(WHERE, 'options.baseUrl', 'an absolute URL without query or fragment', baseUrl, HINT, got);
  }
  return { store, base };
}
