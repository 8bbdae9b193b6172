/**
 * Who is told about the store's own statements while a request runs (Server-Timing's `db`, the
 * OpenTelemetry database spans): the request's observer, found through an async context scope
 * (AsyncLocalStorage) that exists only once a store asked for observation. Without one, a statement
 * costs one `undefined` check here and nothing else.
 */
export interface StatementObserver {
  /** A statement starts; the function returned is called once when it ends, with its error if it failed. */
  statement(sql: string): (error?: unknown) => void;
}

interface Scope {
  run<T>(observer: StatementObserver, fn: () => T): T;
  getStore(): StatementObserver | undefined;
}

/** The process's one scope: like OpenTelemetry's context manager, one per process, made on first use. */
let scope: Scope | undefined;

/** The observer of the request whose work is running now, if any store observes. */
export function currentObserver(): StatementObserver | undefined {
  return scope?.getStore();
}

/**
 * The scope requests are run in, made on first use from the runtime's AsyncLocalStorage
 * (`node:async_hooks`, which Node, Deno, Bun and Workers with nodejs_compat provide). `option`
 * names the store option that needs it, for the error where there is none.
 */
export function observerScope(option: string): Scope {
  if (scope !== undefined) return scope;
  const hooks = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
    'node:async_hooks',
  ) as { AsyncLocalStorage?: new () => Scope } | undefined;
  if (hooks?.AsyncLocalStorage === undefined) {
    throw new TypeError(
      `petstore-router: ${option} needs AsyncLocalStorage (node:async_hooks through process.getBuiltinModule), which this runtime does not provide`,
    );
  }
  return (scope = new hooks.AsyncLocalStorage());
}
