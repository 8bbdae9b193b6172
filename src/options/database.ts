// `db` of createPetStore: a Kysely (the drivers' or your own) or another driver's PetStoreDatabase
// (drivers/contract.ts), told by shape: bundled class names are minified, and a caller may load
// another copy of Kysely.
import { isObject, optionError } from './check.js';

const WHERE = 'createPetStore';
const KYSELY_METHODS = ['selectFrom', 'executeQuery', 'withSchema', 'transaction', 'destroy'];

/** Throws unless `db` is a Kysely or a PetStoreDatabase; for what newcomers pass instead, says how to get one. */
export function checkDatabase(db: unknown): void {
  if (isKysely(db)) return;
  if (isObject(db) && 'kysely' in db) return checkContract(db);
  const [got, hint] = wrongDatabase(db);
  throw optionError(WHERE, 'options.db', 'a Kysely instance or a PetStoreDatabase', db, hint, got);
}

/** A Kysely, of the copy loaded here or another (by its methods). */
export /** A Kysely, of the copy loaded here or another (by its methods). */
function isKysely(value: unknown): boolean {
  return isObject(value) && KYSELY_METHODS.every((m) => typeof value[m] === 'function');
}

/** A PetStoreDatabase: each member what the contract says (a wrong one would fail at the first request). */
function checkContract(db: Record<string, unknown>): void {
  const member = (name: string, ok: boolean, expected: string) => {
    if (!ok) throw optionError(WHERE, `options.db.${name}`, expected, db[name], 'see PetStoreDatabase (drivers/contract.ts)');
  };
  const { kysely, statements, reads } = db;
  member('kysely', isKysely(kysely), 'a Kysely instance (the primary)');
  member(
    'statements',
    statements === undefined || (isObject(statements) && typeof statements.run === 'function'),
    'undefined or a StatementRunner { run }',
  );
  member(
    'reads',
    reads === undefined || (isObject(reads) && isKysely(reads.db) && isObject(reads.statements) && typeof reads.routing === 'function'),
    'undefined or a ReadSide { db, statements, routing }',
  );
  member('classify', typeof db.classify === 'function', 'a function (error) => DatabaseFailure | undefined');
  member('close', typeof db.close === 'function', 'a function () => Promise<void>');
}

/** What a wrong `db` is and what to pass instead. */
function wrongDatabase(db: unknown): [got: string | undefined, hint: string] {
  const pglite = "pass `await createPGliteDatabase()` from 'petstore-router/pglite'";
  const postgres = "`await createPostgresDatabase(process.env.DATABASE_URL)` from 'petstore-router/pg'";
  if (db === undefined || db === null) return [undefined, `${pglite} (embedded) or ${postgres}`];
  if (typeof db === 'string') {
    return [undefined, `for a PostgreSQL URL pass ${postgres}; for PGlite on disk, \`await createPGliteDatabase({ dataDir })\``];
  }
  if (isObject(db) && typeof db.exec === 'function' && 'waitReady' in db) {
    return ['a PGlite', "wrap your PGlite: `await createPGliteDatabase({ pglite })` from 'petstore-router/pglite' (it stays yours)"];
  }
  if (isObject(db) && typeof db.connect === 'function' && typeof db.query === 'function') {
    return 'totalCount' in db
      ? ['a pg.Pool', "wrap your pg.Pool: `await createPostgresDatabase(pool)` from 'petstore-router/pg' (it stays yours)"]
      : ['a pg.Client', `pass a pg.Pool or a URL instead of a client: ${postgres}`];
  }
  return [undefined, `${pglite} or ${postgres}, or your own \`new Kysely(...)\` after \`await migrate(db)\``];
}
