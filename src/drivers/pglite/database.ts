// The PGlite driver: Kysely on PGlite instances (ours are made in instance.ts).
import type { PGlite } from '@electric-sql/pglite';
import { type Kysely, PGliteDialect } from 'kysely';
import { DriverKysely } from '../database.js';
import { view } from './view.js';

export { type PGliteInstance, newPGlite } from './instance.js';

/**
 * @internal Shared with `petstore-router/testing`. Opens the connection now: a broken PGlite
 * fails here rather than at the first query, and Kysely's `destroy()` closes only a driver it has
 * opened (a never-queried PGlite of ours would otherwise stay in memory and keep the process alive).
 */
export async function opened<DB>(db: Kysely<DB>): Promise<Kysely<DB>> {
  await db.connection().execute(async () => {});
  return db;
}

/**
 * @internal Shared with `petstore-router/testing`, not part of the public API. Kysely on a
 * PGlite; `db.destroy()` closes the PGlite only when `owned`.
 */
export function pgliteKysely<DB>(pglite: PGlite, owned: boolean): Kysely<DB> {
  return new DriverKysely<DB>({ dialect: new PGliteDialect({ pglite: view(pglite, owned) }) });
}
