// The options of petstore-router/node: createNodeHandler's, and serve's (the handler's and the
// server's). Checked at creation, synchronously, in the one message style of check.ts.
import { LISTEN, checkOptionNames, checkerOf, isObject, optionError } from './check.js';

/** Every option of createNodeHandler; adapters/node/handler.ts keeps it equal to NodeHandlerOptions. */
export const NODE_HANDLER_OPTION_NAMES = ['onError', 'maxBodyBytes', 'bodyTimeout', 'minBodyBytesPerSecond', 'batchWrites'] as const;

/** Every option of serve; adapters/node/serve.ts keeps it equal to ServeOptions. */
export const SERVE_OPTION_NAMES = [
  ...NODE_HANDLER_OPTION_NAMES,
  'port',
  'host',
  'headersTimeout',
  'requestTimeout',
  'keepAliveTimeout',
  'shutdownTimeout',
] as const;

/** serve's headersTimeout when none is given. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;

const isNumber = (v: unknown): v is number => typeof v === 'number' && !Number.isNaN(v);
const milliseconds = (v: unknown) => isNumber(v) && v >= 0 && Number.isFinite(v);

/** Throws a TypeError unless `options` are createNodeHandler's (`where` names the caller). */
export function checkNodeHandlerOptions(
  options: unknown,
  where = 'createNodeHandler',
  names: readonly string[] = NODE_HANDLER_OPTION_NAMES,
): void {
  if (options === undefined) return;
  if (!isObject(options)) throw optionError(where, 'options', 'an object', options);
  checkOptionNames(where, options, names);
  const check = checkerOf(where);
  check('onError', options.onError, (v) => typeof v === 'function', 'a function (error) => void');
  check('maxBodyBytes', options.maxBodyBytes, (v) => isNumber(v) && v >= 0, 'a number of bytes (0 or more, or Infinity)');
  check('bodyTimeout', options.bodyTimeout, (v) => isNumber(v) && v > 0, 'a number of milliseconds (above 0, or Infinity)');
  check(
    'minBodyBytesPerSecond',
    options.minBodyBytesPerSecond,
    (v) => isNumber(v) && v > 0 && Number.isFinite(v),
    'a number of bytes (above 0)',
  );
  check('batchWrites', options.batchWrites, (v) => typeof v === 'boolean', 'true or false');
}

/** Throws a TypeError unless `options` are serve's: the handler's, and the server's own. */
export function checkServeOptions(options: unknown): void {
  const where = 'serve';
  checkNodeHandlerOptions(options, where, SERVE_OPTION_NAMES);
  if (options === undefined) return;
  const given = options as Record<string, unknown>;
  const check = checkerOf(where);
  check('port', given.port, LISTEN.port, LISTEN.portExpected);
  check('host', given.host, LISTEN.host, LISTEN.hostExpected);
  for (const name of ['headersTimeout', 'requestTimeout', 'keepAliveTimeout', 'shutdownTimeout'] as const) {
    check(name, given[name], milliseconds, 'a number of milliseconds (0 or more)');
  }
  const headersTimeout = (given.headersTimeout as number | undefined) ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeout = given.requestTimeout as number | undefined;
  if (requestTimeout !== undefined && requestTimeout > 0 && requestTimeout < headersTimeout) {
    throw optionError(where, 'options.requestTimeout', `0 or at least headersTimeout (${headersTimeout})`, requestTimeout);
  }
}

/** The options of `options` that createNodeHandler takes (serve hands these on). */
export function nodeHandlerOptionsOf<T extends object>(options: T): Partial<T> {
  const names: readonly string[] = NODE_HANDLER_OPTION_NAMES;
  return Object.fromEntries(Object.entries(options).filter(([name]) => names.includes(name))) as Partial<T>;
}
