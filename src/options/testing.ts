// The options of createTestStore: createPetStore's, but a test store makes its own database.
import { isObject, optionError } from './check.js';

/** Throws when `options` carry a `db` or a `schema` (the rest is createPetStore's to check). */
export function checkTestStoreOptions(options: unknown): void {
  for (const name of ['db', 'schema'] as const) {
    if (isObject(options) && options[name] !== undefined) {
      throw optionError(
        'createTestStore',
        `options.${name}`,
        'absent (a test store makes its own database)',
        options[name],
        'for a store on your own database, `createPetStore({ db, keys })`; for a fresh test database of your own, `createPetStore({ db: await createTestDatabase(), keys })`',
      );
    }
  }
}
