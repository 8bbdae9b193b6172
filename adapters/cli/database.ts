import type { Kysely } from 'kysely';
import type { Database } from 'petstore-router';
import { CliError, describe } from './errors.js';

/**
 * Opens (and by default migrates) the database the command line names: PostgreSQL at `url`, or
 * PGlite in `dataDir`. Drivers are imported only when needed. Failures become one clear line.
 */
export async function openDatabase(
  target: {
    database?: string;
    dataDir: string;
    preparedStatements?: false;
    sessionStatementTimeout?: false;
    readReplicas?: string[];
    operating?: { dbMaxWaitMs?: number };
  },
  migrate = true,
  pglite?: typeof import('petstore-router/pglite'),
): Promise<Kysely<Database>> {
  try {
    if (target.database !== undefined) {
      const { createPostgresDatabase } = await import('petstore-router/pg');
      return await createPostgresDatabase(target.database, {
        migrate,
        ...(target.preparedStatements === false ? { preparedStatements: false } : {}),
        ...(target.sessionStatementTimeout === false ? { sessionStatementTimeout: false } : {}),
        ...(target.readReplicas === undefined ? {} : { readReplicas: target.readReplicas }),
        ...(target.operating?.dbMaxWaitMs !== undefined ? { maxWaitMs: target.operating.dbMaxWaitMs } : {}),
      });
    }
    const { createPGliteDatabase } = pglite ?? (await import('petstore-router/pglite'));
    return await createPGliteDatabase({ dataDir: target.dataDir, migrate });
  } catch (error) {
    const missing = /Cannot find (?:package|module) '(@electric-sql\/pglite|pg)'/.exec(describe(error));
    if (missing) throw new CliError(`the driver ${missing[1]} is not installed: npm install ${missing[1]}`);
    const where = target.database !== undefined ? redact(target.database) : `PGlite in ${target.dataDir}`;
    throw new CliError(`cannot open the database (${where}): ${describe(error)}`);
  }
}

/** A database URL safe to print: the password replaced. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the given URL';
  }
}

/**
 * The health probe's own way to PostgreSQL: a pool of one connection, with the same bounds, so a
 * probe never waits behind API requests for a connection of theirs. PGlite has one connection for
 * everything: undefined (health uses the store's database).
 */
export async function openHealthDatabase(target: {
  database?: string;
  operating?: { dbMaxWaitMs?: number };
}): Promise<Kysely<Database> | undefined> {
  if (target.database === undefined) return undefined;
  const { createPostgresDatabase } = await import('petstore-router/pg');
  return createPostgresDatabase(
    { connectionString: target.database, max: 1 },
    {
      migrate: false,
      preparedStatements: false,
      ...(target.operating?.dbMaxWaitMs !== undefined ? { maxWaitMs: target.operating.dbMaxWaitMs } : {}),
    },
  );
}
