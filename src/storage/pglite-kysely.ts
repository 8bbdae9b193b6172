// Kysely on a PGlite, migrated or checked: the part of `petstore-router/pglite` that loads Kysely,
// imported by its entry (src/pglite.ts) only once PGlite is on its way (see there).
import type { Kysely } from 'kysely';
import { type PGliteInstance, opened, pgliteKysely } from '../drivers/pglite/database.js';
import type { Database } from './database.js';
import { migrateOrDestroy } from './migrate.js';
import { migrationsCurrent } from './migrations-current.js';

/**
 * Kysely on `pglite` (closed by `db.destroy()` only when `owned`), migrated unless `migrate` is
 * false. A database already migrated (a snapshot, a data directory opened again) costs one select.
 */
export async function migratedKysely(pglite: PGliteInstance, owned: boolean, migrate: boolean): Promise<Kysely<Database>> {
  const db = pgliteKysely<Database>(pglite, owned);
  if (!migrate) return opened(db);
  return (await migrationsCurrent(db)) ? opened(db) : migrateOrDestroy(db);
}
