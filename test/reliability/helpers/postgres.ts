import { randomBytes } from 'node:crypto';
import pg from 'pg';

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
 * Runs `fn` on a fresh database of the server of `url`, then drops it. Register the test with
 * `postgresTest` (test/helpers/postgres-test.ts), which gives the url or marks the test skipped.
 */
export async function onFreshDatabase(url: string, label: string, fn: (url: string) => Promise<void>): Promise<void> {
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
