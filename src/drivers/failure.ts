/**
 * Failures of the database that are not faults of a request, classified where the driver errors
 * are known, for both drivers (PostgreSQL and PGlite report the same SQLSTATEs):
 * - `not_migrated`: one of our tables does not exist (SQLSTATE 42P01, undefined_table, naming a
 *   `petstore_` relation: never migrated, or by an older version of the package), or the store's
 *   `schema` does not exist (3F000, invalid_schema_name: `migrate(db, { schema })` creates it).
 * - `closed`: the database was closed under the store (`db.destroy()`, a test store's `close()`,
 *   a pool ended): Kysely, PGlite and pg each say so in their own words.
 * The one error -> Response place (http/respond.ts) answers both with a 503 of their own code.
 */
export type DatabaseFailure = 'not_migrated' | 'closed';

/** What a client (and the health check) is told when the store's tables are missing or behind. */
export const NOT_MIGRATED_MESSAGE =
  "the database is not migrated for this version of petstore-router: run `petstore-router migrate --database URL`, or `await migrate(db)` from 'petstore-router' before createPetStore";

/** What a client (and the health check) is told after the store's database was closed. */
export const CLOSED_MESSAGE = "this store's database has been closed (db.destroy() or the test store's close()): create a new store";

const UNDEFINED_TABLE = '42P01';
const INVALID_SCHEMA_NAME = '3F000';
// The relation as PostgreSQL names it in the message, schema-qualified or not: `relation "s.petstore_pets"`.
const OUR_RELATION = /relation "(?:[^"]*\.)?petstore_[a-z_]*" does not exist/;
const CLOSED_ERROR =
  /driver has already been destroyed|PGlite is closed|PGlite instance is already closed|Cannot use a pool after calling end/i;

/** The kind of database failure `error` (or its cause chain) is, or undefined for any other error. */
export function databaseFailureOf(error: unknown): DatabaseFailure | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof message !== 'string') continue;
    if ((code === UNDEFINED_TABLE && OUR_RELATION.test(message)) || code === INVALID_SCHEMA_NAME) return 'not_migrated';
    if (CLOSED_ERROR.test(message)) return 'closed';
  }
  return undefined;
}
