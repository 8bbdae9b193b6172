// One query instead of Kysely's Migrator when nothing is to be done: a database opened again
// (the standalone server on its data directory) pays a single select, not the Migrator's
// bookkeeping round trips.
import { type Kysely, sql } from 'kysely';
import type { Database } from './database.js';
import { MIGRATION_TABLE } from './migrate.js';
import { migrations } from './migrations/index.js';

/**
 * True when the bookkeeping table in `schema` lists exactly our migrations, so `migrate()` would
 * apply nothing. False otherwise (table missing, a migration not yet applied, or one we do not
 * know): then run `migrate()`, which applies or reports.
 */
export async function migrationsCurrent(db: Kysely<Database>, schema = 'public'): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.id(schema, MIGRATION_TABLE)}`.execute(db);
    const applied = rows.map((row) => row.name).sort();
    const expected = Object.keys(migrations).sort();
    return applied.length === expected.length && applied.every((name, i) => name === expected[i]);
  } catch {
    return false;
  }
}
