/**
 * Checks a PostgreSQL schema name given as an option (`createPetStore`, `migrate`): a non-empty
 * string of at most 63 bytes (PostgreSQL's identifier limit; a longer name would be silently
 * truncated, so two stores could end up sharing one schema), without NUL. It is always quoted
 * as an identifier, so any other character is safe. Returns it unchanged.
 */
export function checkSchemaName(schema: unknown, where: string): string {
  if (typeof schema !== 'string' || schema === '' || schema.includes('\0') || new TextEncoder().encode(schema).length > 63) {
    throw new TypeError(`petstore-router: ${where} must be a PostgreSQL schema name (1-63 bytes, no NUL), got ${JSON.stringify(schema)}`);
  }
  if (schema.startsWith('pg_'))
    throw new TypeError(`petstore-router: ${where} may not start with pg_ (reserved by PostgreSQL), got ${JSON.stringify(schema)}`);
  return schema;
}
