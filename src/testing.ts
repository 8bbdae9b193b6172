// `petstore-router/testing`: a fresh, isolated, migrated store per test, in-process on PGlite
// (one shared instance per process, one schema per store: testing/schema-pool.ts).
// Never imported by the core entry, so production code never loads it.
import type { Kysely } from 'kysely';
import { opened } from './drivers/pglite/database.js';
import type { AnyKysely, Database } from './storage/database.js';
import { resetDatabase } from './storage/reset.js';
import { type PetStore, type PetStoreOptions, createPetStore } from './store.js';
import { leaseSchema } from './testing/schema-pool.js';
import { type TestFetch, fetchLike } from './testing/fetch.js';
import type { KeysInput } from './options/keys.js';
import { checkTestStoreOptions } from './options/testing.js';
import { schemaKysely } from './testing/schema-view.js';
import type { SeedData, Seeded } from './storage/seed.js';
import { seed } from './testing/seed.js';

export { seed } from './testing/seed.js';
export { TEST_ORIGIN } from './testing/fetch.js';
export type { TestFetch } from './testing/fetch.js';
export type { Int64Input, SeedData, SeedOrder, SeedPet, Seeded } from './storage/seed.js';

/** The schema of each database made here, for {@link resetTestDatabase} (raw SQL needs the name). */
const schemas = new WeakMap<Kysely<Database>, string>();

/**
 * A migrated, empty database isolated from every other one: its own PostgreSQL schema in the
 * process's shared in-memory PGlite, with the query builder bound to it. The first call of a
 * process takes seconds (initdb); later ones well under a millisecond when a closed store's schema
 * is free for reuse, a few milliseconds when a new schema is built (docs/testing.md). int8
 * columns come back as `bigint`. Tests may run concurrently.
 *
 * Queries through Kysely's query builder reach the database's schema; raw SQL (Kysely's sql tag) must
 * name it: {@link testDatabaseSchema}. Call `db.destroy()` when done: the schema is emptied and
 * reused (the shared PGlite stays open), and this `db` answers nothing more.
 *
 * @example
 * ```ts
 * import { createPetStore } from 'petstore-router'
 * import { createTestDatabase } from 'petstore-router/testing'
 *
 * const db = await createTestDatabase()
 * const store = createPetStore({ db, keys: ['test-key'] })
 * // ... requests through store.fetch ...
 * await db.destroy()
 * ```
 */
export async function createTestDatabase(): Promise<Kysely<Database>> {
  const lease = await leaseSchema();
  const db = schemaKysely(lease);
  try {
    await opened(db); // Kysely closes only a driver it has opened: destroy() must release the lease
  } catch (error) {
    await lease.release();
    throw error;
  }
  schemas.set(db, lease.schema);
  return db;
}

/**
 * The PostgreSQL schema of a {@link createTestDatabase} database (undefined for any other), to
 * name its tables in raw SQL.
 *
 * @example
 * ```ts
 * const pets = sql.id(testDatabaseSchema(db)!, 'petstore_pets') // "petstore_test_1"."petstore_pets", for raw SQL
 * ```
 */
export function testDatabaseSchema(db: AnyKysely): string | undefined {
  return schemas.get(db);
}

/**
 * Empties a test database (every table, id sequences restarted) so it is as fresh as a new one.
 * Also works on any migrated database of ours (its default schema), e.g. one PGlite shared by the
 * tests of a file that run one after another.
 *
 * @example
 * ```ts
 * import { createPetStore } from 'petstore-router'
 * import { createTestDatabase, resetTestDatabase } from 'petstore-router/testing'
 *
 * const db = await createTestDatabase()   // once per file
 * // before each test:
 * await resetTestDatabase(db)
 * const store = createPetStore({ db, keys: ['test-key'] })
 * ```
 */
export async function resetTestDatabase(db: AnyKysely): Promise<void> {
  await resetDatabase(db, schemas.get(db));
}

/** The key a {@link createTestStore} store accepts unless you pass `keys`. */
export const TEST_KEY = 'test-key';

/** Options of {@link createTestStore}: those of `createPetStore` except `db` and `schema`, all optional. */
export type TestStoreOptions = Partial<Omit<PetStoreOptions, 'db' | 'keys' | 'schema'>> & {
  /** @default [TEST_KEY] */
  keys?: KeysInput;
};

/** What {@link createTestStore} returns. */
export interface TestStore {
  readonly store: PetStore;
  /** The store's own fresh database, to seed or inspect rows (query builder; see `schema`). */
  readonly db: Kysely<Database>;
  /** The store's PostgreSQL schema in the shared PGlite: name it in raw SQL. */
  readonly schema: string;
  /** Inserts pets and orders without HTTP ({@link seed} on this store's database). */
  readonly seed: (data: SeedData) => Promise<Seeded>;
  /**
   * The store's `fetch`, called like the global `fetch`: `fetch(request)`, `fetch(url, init)` with
   * a string or a URL, or a path alone (`fetch('/v1/pets')`), resolved against {@link TEST_ORIGIN}.
   * @example
   * ```ts
   * const res = await fetch('/v1/pets', { headers: { authorization: `Bearer ${key}` } })
   * ```
   */
  readonly fetch: TestFetch;
  /** A key the store accepts: the first of `keys` when you pass a list, else {@link TEST_KEY}. */
  readonly key: string;
  /** Empties the store's schema for reuse; the store and `db` answer nothing afterwards. Idempotent. Bound. */
  readonly close: () => Promise<void>;
}

/**
 * A store on its own {@link createTestDatabase}: one line of setup per test, isolated from every
 * other store (tests may run concurrently), well under a millisecond once a process has made its
 * first and a closed store's schema is free, a few milliseconds otherwise (docs/testing.md).
 *
 * @example
 * ```ts
 * import { createTestStore } from 'petstore-router/testing'
 *
 * const { fetch, key, close } = await createTestStore()
 * const res = await fetch(new Request('http://test/v1/pets', { headers: { authorization: `Bearer ${key}` } }))
 * await close()
 * ```
 */
export async function createTestStore(options: TestStoreOptions = {}): Promise<TestStore> {
  checkTestStoreOptions(options);
  const keys = options.keys ?? [TEST_KEY];
  const db = await createTestDatabase();
  try {
    const store = createPetStore({ ...options, db, keys, schema: undefined }); // db is bound to its schema already
    const key = typeof keys === 'function' ? TEST_KEY : typeof keys === 'string' ? keys : (keys[0] ?? TEST_KEY);
    const schema = schemas.get(db)!;
    return { store, db, schema, fetch: fetchLike(store.fetch), key, seed: (data) => seed(db, data), close: () => db.destroy() };
  } catch (error) {
    await db.destroy(); // e.g. invalid keys: nothing leaks
    throw error;
  }
}
