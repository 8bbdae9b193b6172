/**
 * PostgreSQL's own CPU time, to report beside each server's: the backends of the benchmark
 * database parse, plan and execute what the servers send, so how a server sends its SQL (named
 * or unnamed statements) shows here. Read from /proc (PostgreSQL runs on this machine), for the
 * backends connected to the database, excluding the benchmark's own connection.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from 'petstore-router';
import { cpuTimes } from './proc.js';

export interface BackendSample {
  /** CPU seconds (user + system) of each backend at the sample. */
  cpu: Map<number, number>;
}

/** The backends of the current database other than ours, and their CPU so far. */
export async function sampleBackends(db: Kysely<Database>): Promise<BackendSample> {
  const { rows } = await sql<{ pid: number }>`
    select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`.execute(
    db,
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const t = cpuTimes(pid);
      cpu.set(pid, t.user + t.system);
    } catch {
      // The backend ended between the query and the read.
    }
  }
  return { cpu };
}

/**
 * CPU seconds the backends used between two samples: a backend present only in `after` started
 * in between and counts whole; one gone by `after` is not counted (pools keep theirs open).
 */
export function backendCpuBetween(before: BackendSample, after: BackendSample): number {
  let total = 0;
  for (const [pid, cpu] of after.cpu) total += cpu - (before.cpu.get(pid) ?? 0);
  return total;
}
