import type pg from 'pg';

/**
 * pg's documented query config for one of the store's own statements, without its values (they go
 * to `client.query` as its second argument): `rowMode: 'array'` always, and `name` when the
 * statement is to be prepared once per backend.
 */
export type StatementConfig = pg.QueryArrayConfig;

/**
 * The plain path: a new config object per query, as any pg user writes it. pg copies the config
 * it is given (its `normalizeQueryConfig` clones every own property, keeping the prototype).
 */
export function plainStatementConfig(name: string | undefined, text: string): StatementConfig {
  return name === undefined ? { text, rowMode: 'array' } : { name, text, rowMode: 'array' };
}

/** By text (each a string whose hash V8 keeps, so a lookup hashes nothing): named and unnamed configs. */
const named = new Map<string, StatementConfig>();
const unnamed = new Map<string, StatementConfig>();

/**
 * The fast path: one config per statement and name, reused by every query. Its fields are
 * inherited from a prototype and it has no own property, so pg's copy of it has nothing to copy
 * (pg reads the fields by plain property access, which finds them on the prototype, and its copy
 * keeps that prototype); pg sets the values and callback on its copy, never on ours. Delete this
 * function and use {@link plainStatementConfig} to go back to the plain path;
 * test/pg-query-config.test.ts runs both.
 */
export function sharedStatementConfig(name: string | undefined, text: string): StatementConfig {
  const configs = name === undefined ? unnamed : named;
  let config = configs.get(text);
  if (config === undefined || config.name !== name) {
    config = Object.create(plainStatementConfig(name, text)) as StatementConfig;
    // The store compiles a few statements per dialect and schema (own-statements.ts caps them).
    if (configs.size < 1024) configs.set(text, config);
  }
  return config;
}

/** The config every own statement is sent with: the seam between the two paths above. */
export const statementConfig: (name: string | undefined, text: string) => StatementConfig = sharedStatementConfig;
