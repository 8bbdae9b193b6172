import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL server of DATABASE_URL, or undefined (the test is skipped) when unset outside
 * CI. In CI (CI=true) a missing DATABASE_URL throws: PostgreSQL tests may not be skipped there.
 */
export function postgresUrl(): string | undefined {
  const url = process.env.DATABASE_URL;
  if (!url && process.env.CI) throw new Error('DATABASE_URL must be set in CI: the PostgreSQL reliability tests may not be skipped');
  return url || undefined;
}

/**
 * A new, empty database on the server of `url` (so tests never see each other's pets), and a
 * function that drops it (WITH (FORCE): a killed server's connections may linger).
 */
export async function freshDatabase(url: string, label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `petstore_rel_${label}_${randomBytes(4).toString('hex')}`;
  await admin(url, `CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return { url: target.toString(), drop: async () => void (await admin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}

/**
 * Runs `fn` on a fresh database of DATABASE_URL's server, then drops it; outside CI with no
 * DATABASE_URL it says the test was skipped (in CI `postgresUrl()` throws instead).
 */
export async function onFreshDatabase(label: string, fn: (url: string) => Promise<void>): Promise<void> {
  const url = postgresUrl();
  if (!url) return console.log('  (skipped: no DATABASE_URL)');
  const db = await freshDatabase(url, label);
  try {
    await fn(db.url);
  } finally {
    await db.drop();
  }
}

/** Runs one statement on the database of `url` with a short-lived client. */
export async function admin(url: string, statement: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}
