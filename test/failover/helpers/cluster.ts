import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { admin } from '../../reliability/helpers/postgres.js';

const run = promisify(execFile);
const TOOL = fileURLToPath(new URL('../../../../shared/tools/pg-ha.sh', import.meta.url));

/**
 * The Patroni cluster `.ci/run` starts (../shared/tools/pg-ha.sh start --port PG_HA_PORT --haproxy
 * P): PG_HA_URL is its multi-host URL, PG_HA_PROXY_URL its HAProxy endpoint, both without a
 * database. Undefined outside CI when unset (the tests are then skipped); in CI unset throws.
 */
export function cluster(): { url: string; proxyUrl: string; port: string } | undefined {
  const url = process.env.PG_HA_URL;
  const proxyUrl = process.env.PG_HA_PROXY_URL;
  if (!url || !proxyUrl) {
    if (process.env.CI) throw new Error('PG_HA_URL and PG_HA_PROXY_URL must be set in CI: the failover run may not be skipped');
    return undefined;
  }
  return { url, proxyUrl, port: process.env.PG_HA_PORT ?? '5441' };
}

/** Runs `pg-ha.sh COMMAND --port PORT ...` and resolves with its last line of output. */
export async function ha(port: string, command: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('bash', [TOOL, command, '--port', port, ...args], { timeout: 180_000 });
  return stdout.trim().split('\n').at(-1) ?? '';
}

/** The hosts of a multi-host URL (`postgres://u:p@h1:p1,h2:p2/...`), `host:port` each. */
export function hostsOf(url: string): string[] {
  return /@([^/?]+)/.exec(url)![1]!.split(',');
}

/** `url` (no database) with `hosts` in its host list, the database `db` and the query `query`. */
export function withHosts(url: string, hosts: readonly string[], db: string, query = ''): string {
  return `${url.replace(/@[^/?]+.*$/, '@')}${hosts.join(',')}/${db}${query}`;
}

/** A new database on the cluster (made through HAProxy, on the primary) and how to drop it. */
export async function clusterDatabase(proxyUrl: string, label: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `petstore_ha_${label}_${randomBytes(4).toString('hex')}`;
  const postgres = `${proxyUrl}/postgres`;
  await admin(postgres, `CREATE DATABASE ${name}`);
  return { name, drop: async () => void (await admin(postgres, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}
