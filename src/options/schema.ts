import { optionError } from './check.js';

/**
 * Checks a PostgreSQL schema name given as `options.schema` (`createPetStore`, `migrate`): a
 * non-empty string of at most 63 bytes (PostgreSQL's identifier limit; a longer name would be
 * silently truncated, so two stores could end up sharing one schema), without NUL, not `pg_`
 * (reserved). It is always quoted as an identifier, so any other character is safe. Returns it.
 */
export function checkSchemaName(schema: unknown, where: string): string {
  const got = typeof schema === 'string' ? JSON.stringify(schema) : undefined;
  if (typeof schema !== 'string' || schema === '' || schema.includes('\0') || new TextEncoder().encode(schema).length > 63) {
    throw optionError(where, 'options.schema', 'a PostgreSQL schema name (1-63 bytes, no NUL)', schema, undefined, got);
  }
  if (schema.startsWith('pg_'))
    throw optionError(where, 'options.schema', 'a name not starting with pg_ (reserved by PostgreSQL)', schema, undefined, got);
  return schema;
}
