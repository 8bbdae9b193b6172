/**
 * A PostgreSQL database per test worker (scripts/uvu-parallel.ts), so that files running at once
 * never reset or count each other's rows: `<name>_<pid>_w<N>` beside DATABASE_URL's database, made
 * for the run and dropped after it, and every test URL of the environment pointed at it (the replica and the PgBouncers reach
 * any database of their server by name). Without DATABASE_URL, nothing: PGlite is per process.
 */
import pg from 'pg';

/** The environment variables naming the test database; each is pointed at the worker's own. */
const URL_VARIABLES = ['DATABASE_URL', 'PGBOUNCER_URL', 'REPLICA_URL', 'REPLICA_PGBOUNCER_URL'] as const;

export interface WorkerDatabases {
  /** One environment per worker: its URLs. */
  envs: Record<string, string>[];
  drop(): Promise<void>;
}

export async function workerDatabases(count: number): Promise<WorkerDatabases> {
  const url = process.env.DATABASE_URL;
  if (!url) return { envs: Array.from({ length: count }, () => ({})), drop: async () => {} };
  const base = decodeURIComponent(new URL(url).pathname.slice(1));
  // Named for this run: a pooler may still hold connections to a database of the same name that
  // an earlier run dropped, and would hand a test one of them.
  const names = Array.from({ length: count }, (_, i) => `${base}_${process.pid}_w${i + 1}`);
  await admin(url, async (client) => {
    // Databases of runs that were killed before they could drop theirs.
    const { rows } = await client.query<{ name: string }>('select datname as name from pg_database where datname like $1', [
      `${base}\\_%\\_w%`,
    ]);
    for (const { name } of rows) {
      const pid = name.startsWith(`${base}_`) ? Number(/^(\d+)_w\d+$/.exec(name.slice(base.length + 1))?.[1]) : 0;
      if (pid && !alive(pid)) await client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
    }
    for (const name of names) await client.query(`create database ${pg.escapeIdentifier(name)}`);
  });
  const envs = names.map((name) => {
    const env: Record<string, string> = {};
    for (const variable of URL_VARIABLES) {
      const value = process.env[variable];
      if (!value) continue;
      const moved = new URL(value);
      moved.pathname = `/${encodeURIComponent(name)}`;
      env[variable] = moved.href;
    }
    return env;
  });
  // A new database reaches a streaming replica when it has replayed the CREATE: wait for that.
  if (process.env.REPLICA_URL) for (const env of envs) await reachable(env.REPLICA_URL!);
  return {
    envs,
    drop: () =>
      admin(url, async (client) => {
        for (const name of names) await client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      }),
  };
}

async function admin(url: string, work: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function reachable(url: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin(url, async () => {});
      return;
    } catch (error) {
      if (attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
