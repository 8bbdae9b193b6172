import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Server } from './server.js';

const TOOL = fileURLToPath(new URL('../../../../shared/tools/pg-replica.sh', import.meta.url));

/**
 * REPLICA_URL (the streaming replica `.ci/run` starts with ../shared/tools/pg-replica.sh), or
 * undefined when unset outside CI; in CI an unset REPLICA_URL throws (the test may not be skipped).
 */
export function replicaBase(): string | undefined {
  const url = process.env.REPLICA_URL;
  if (!url && process.env.CI) throw new Error('REPLICA_URL must be set in CI: the read-replica reliability tests may not be skipped');
  return url || undefined;
}

/** The URL of database `dbUrl` (a database of the primary) on the replica. */
export function onReplica(replicaUrl: string, dbUrl: string): string {
  const target = new URL(replicaUrl);
  target.pathname = new URL(dbUrl).pathname;
  return target.toString();
}

/** Runs pg-replica.sh with `args` for the replica's port (`set-delay N`, `stop`, `start`). */
export function replicaTool(replicaUrl: string, ...args: string[]): string {
  const port = new URL(replicaUrl).port || '5433';
  return execFileSync(TOOL, [...args, '--port', port], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

/** Waits until the replica has replayed the creation of the database at `url` (it can connect to it). */
export async function untilReplicaHas(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query("select 1 from pg_class where relname = 'petstore_pets'").then(({ rowCount }) => {
        if (rowCount === 0) throw new Error('not migrated there yet');
      });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/** The server's metrics URL, from the line it prints on stderr (`--metrics-port 0`). */
export function metricsUrl(server: Server): string {
  const m = /metrics on (http:\/\/\S+)/.exec(server.stderr());
  if (!m) throw new Error(`no metrics line: ${server.stderr().slice(-500)}`);
  return m[1]!;
}

/** `petstore_db_reads_total` of one server by target: `primary` and `replica`. */
export async function readsByTarget(server: Server): Promise<{ primary: number; replica: number }> {
  const text = await (await fetch(metricsUrl(server))).text();
  const counts = { primary: 0, replica: 0 };
  for (const m of text.matchAll(/^petstore_db_reads_total\{target="([^"]+)"\} (\d+)/gm)) {
    if (m[1] === 'primary') counts.primary += Number(m[2]);
    else counts.replica += Number(m[2]);
  }
  return counts;
}
