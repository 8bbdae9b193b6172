import type { Test } from 'uvu';

/**
 * DATABASE_URL, or undefined when it is unset outside CI (the PostgreSQL cases are then reported
 * as skipped). In CI (CI=true) an unset DATABASE_URL throws: PostgreSQL cases may not be skipped.
 */
export function databaseUrl(): string | undefined {
  const url = process.env.DATABASE_URL;
  if (!url && process.env.CI) throw new Error('DATABASE_URL must be set in CI: the PostgreSQL run may not be skipped');
  return url || undefined;
}

/**
 * Registers a PostgreSQL case on `test`: run with the DATABASE_URL it is given, or, when that is
 * unset outside CI, registered with `test.skip` so that uvu counts it in `Skipped`, not `Passed`.
 *
 * @example
 * ```ts
 * postgresTest(test, 'a Pool passed in keeps its parsers', async (url) => { ... })
 * ```
 */
export function postgresTest<T>(test: Test<T>, name: string, fn: (url: string, context: T) => Promise<void>): void {
  const url = databaseUrl();
  if (url) test(name, (context) => fn(url, context));
  else test.skip(`${name} (DATABASE_URL unset)`);
}

/** `test` itself with PostgreSQL, else {@link skippedSuite}: for a suite that is PostgreSQL throughout. */
export function postgresSuite<T>(test: Test<T>): Test<T> {
  return databaseUrl() ? test : skippedSuite(test);
}

/**
 * A stand-in for `test` on which every test is registered with `test.skip` (so uvu counts it in
 * `Skipped`) and hooks are never run (a `before` that connects to PostgreSQL would throw).
 */
export function skippedSuite<T>(test: Test<T>): Test<T> {
  const noHook = Object.assign((_hook: unknown) => {}, { each: (_hook: unknown) => {} });
  const skip = (name?: string) => test.skip(name && `${name} (DATABASE_URL unset)`);
  return Object.assign((name: string) => skip(name), { only: skip, skip, before: noHook, after: noHook, run: () => test.run() });
}
