import { migrate } from 'petstore-router';
import type { MigrateCommand } from './args.js';
import { openDatabase, redact } from './database.js';
import { CliError, EXIT_OK, describe } from './errors.js';

/** `migrate`: applies the migrations to PostgreSQL and reports what was applied. */
export async function runMigrate(command: MigrateCommand): Promise<number> {
  const db = await openDatabase({ database: command.database, dataDir: '' }, false);
  try {
    const results = await migrate(db);
    const applied = results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
    process.stdout.write(
      applied.length > 0 ? `applied ${applied.length} migration(s): ${applied.join(', ')}\n` : 'the database is up to date\n',
    );
  } catch (error) {
    throw new CliError(`cannot migrate the database (${redact(command.database)}): ${describe(error)}`);
  } finally {
    await db.destroy();
  }
  return EXIT_OK;
}
