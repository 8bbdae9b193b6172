/**
 * Load from `wrk` (Debian package), pinned to its own core. wrk is event-driven C: one thread
 * drives 32 connections on a fraction of a core, where autocannon (Node) would need about as
 * much CPU as the server it measures, on a 2-core machine. POST and varying ids use Lua scripts.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { config } from './config.js';

const run = promisify(execFile);

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Responses with a status outside 2xx/3xx, and socket errors: both must be 0 for a valid round. */
  non2xx: number;
  errors: number;
}

/** Installs wrk from Debian if it is missing (we run as root on these machines). */
export function ensureWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // wrk --version exits 1 after printing; only a missing binary is ENOENT.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
    console.error('wrk not found: apt-get install -y wrk');
    execFileSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq wrk'], { stdio: 'inherit' });
  }
}

export interface Scenario {
  name: string;
  description: string;
  /** Path under the base URL's origin, or a Lua script that builds each request. */
  path: string;
  lua?: string;
}

const auth = `Bearer ${config.apiKey}`;

export const scenarios: Record<string, Scenario> = {
  list: { name: 'list', description: 'GET /v1/pets?limit=20', path: '/v1/pets?limit=20' },
  filter: { name: 'filter', description: 'GET /v1/pets?status=available&limit=100', path: '/v1/pets?status=available&limit=100' },
  get: {
    name: 'get',
    description: `GET /v1/pets/{id}, id random in 1..${config.httpRows}`,
    path: '/v1/pets/1',
    lua: `math.randomseed(42)
request = function()
  return wrk.format("GET", "/v1/pets/" .. math.random(1, ${config.httpRows}))
end`,
  },
  create: {
    name: 'create',
    description: 'POST /v1/pets {"name":"Rex","categoryId":7,"status":"pending"}',
    path: '/v1/pets',
    lua: `wrk.method = "POST"
wrk.body = '{"name":"Rex","categoryId":7,"status":"pending"}'
wrk.headers["Content-Type"] = "application/json"`,
  },
};

function scriptFile(s: Scenario): string | undefined {
  if (!s.lua) return undefined;
  const dir = join(config.workDir, 'wrk');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${s.name}.lua`);
  writeFileSync(file, s.lua);
  return file;
}

/** Runs wrk against `origin` for `seconds`, pinned to the load core. */
export async function wrk(origin: string, s: Scenario, seconds: number): Promise<WrkResult> {
  const script = scriptFile(s);
  const args = [
    '-c',
    config.loadCpu,
    'wrk',
    '-t1',
    `-c${config.connections}`,
    `-d${seconds}s`,
    '--latency',
    '-H',
    `Authorization: ${auth}`,
  ];
  if (script) args.push('-s', script);
  args.push(origin + s.path);
  const { stdout } = await run('taskset', args, { maxBuffer: 1 << 20 });
  return parseWrk(stdout);
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
function duration(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : NaN;
}

export function parseWrk(out: string): WrkResult {
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(out);
  const requests = total ? Number(total[1]) : 0;
  const seconds = total ? duration(`${total[2]}${total[3]}`) / 1000 : NaN;
  const pct = (p: string) => {
    const m = new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out);
    return m ? duration(m[1]!) : NaN;
  };
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  return { requests, seconds, rps: requests / seconds, p50: pct('50'), p99: pct('99'), non2xx, errors };
}
