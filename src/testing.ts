// `petstore-router/testing`: a fresh, isolated, migrated store per test, in-process on PGlite.
// Never imported by the core entry, so production code never loads it.
import type { Kysely } from 'kysely';
import type { KeysOption } from './http/auth.js';
import { newPGlite, opened, pgliteKysely } from './drivers/pglite/index.js';
import type { Database } from './storage/database.js';
import { migrateOrDestroy } from './storage/migrate.js';
import { resetDatabase } from './storage/reset.js';
import { type PetStore, type PetStoreOptions, createPetStore } from './store.js';

/**
 * A tarball of a migrated, empty data directory, made once per process: a new PGlite runs initdb
 * (3-6 s) unless it loads one (about 0.4 s, most of it PostgreSQL starting; see docs/testing.md).
 * It is never written to after it is made, so sharing it is safe; a failure is not cached.
 */
let template: Promise<Blob | File> | undefined;

function migratedTemplate(): Promise<Blob | File> {
  template ??= (async () => {
    const pglite = newPGlite({});
    const db = await migrateOrDestroy(pgliteKysely(pglite, true));
    try {
      return await pglite.dumpDataDir('none');
    } finally {
      await db.destroy();
    }
  })().catch((error: unknown) => {
    template = undefined;
    throw error;
  });
  return template;
}

/**
 * A new in-memory PGlite database with petstore-router's migrations applied, empty and isolated
 * from every other one (its own PGlite: tests may run concurrently). The first call of a process
 * takes seconds (initdb); each later one about 0.4 s. int8 columns come back as `bigint`.
 *
 * It is yours: call `db.destroy()` when done (an undestroyed PGlite keeps its memory).
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
  return opened(pgliteKysely(newPGlite({ loadDataDir: await migratedTemplate() }), true));
}

/**
 * Empties a test database (every table, id sequences restarted) so it is as fresh as a new one:
 * about 5 ms, against about 0.4 s for a new {@link createTestDatabase}. Share one database per
 * test file and reset it before each test when the tests of that file run one after another.
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
export async function resetTestDatabase(db: Kysely<Database>): Promise<void> {
  await resetDatabase(db);
}

/** The key a {@link createTestStore} store accepts unless you pass `keys`. */
export const TEST_KEY = 'test-key';

/** Options of {@link createTestStore}: those of `createPetStore` except `db`, all optional. */
export type TestStoreOptions = Partial<Omit<PetStoreOptions, 'db' | 'keys'>> & {
  /** @default [TEST_KEY] */
  keys?: KeysOption;
};

/** What {@link createTestStore} returns. */
export interface TestStore {
  readonly store: PetStore;
  /** The store's own fresh database, to seed or inspect rows. */
  readonly db: Kysely<Database>;
  /** `store.fetch`, bound. */
  readonly fetch: (request: Request) => Promise<Response>;
  /** A key the store accepts: the first of `keys` when you pass a list, else {@link TEST_KEY}. */
  readonly key: string;
  /** Destroys the database (and its PGlite). */
  close(): Promise<void>;
}

/**
 * A store on its own {@link createTestDatabase}: one line of setup per test.
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
  const keys = options.keys ?? [TEST_KEY];
  const db = await createTestDatabase();
  try {
    const store = createPetStore({ ...options, db, keys });
    const key = typeof keys === 'function' ? TEST_KEY : (keys[0] ?? TEST_KEY);
    return { store, db, fetch: store.fetch, key, close: () => db.destroy() };
  } catch (error) {
    await db.destroy(); // e.g. invalid keys: nothing leaks
    throw error;
  }
}
