/**
 * Benchmark settings, from the environment so `npm run bench` stays one plain command.
 *
 * | variable              | default                                                  |
 * |-----------------------|----------------------------------------------------------|
 * | BENCH_QUICK=1         | short rounds and fewer iterations (a smoke run, ~5 min)  |
  suites: list('BENCH_ONLY', ['http', 'inprocess', 'ergonomics', 'test-stores', 'first-store', 'scale', 'overload', 'replica', 'json-parse']),
 * | BENCH_DATABASE_URL    | postgres://postgres:postgres@127.0.0.1:5432/petstore_bench |
 * | BENCH_ROUNDS          | alternating rounds per scenario (10; quick 2)            |
 * | BENCH_SECONDS         | seconds per measured round (3; quick 2)                  |
 * | BENCH_LEAD_IN_SECONDS | unmeasured load on a server right before each of its rounds (1; 0: none) |
 * | BENCH_CONNECTIONS     | wrk connections (32)                                     |
 * | BENCH_SERVERS         | comma list: petstore,petstore-unshed,node-pg,fastify-pg (and petstore-ref) |
 * | BENCH_REF             | git ref of the petstore-ref server, for A/B runs (HEAD)  |
 * | BENCH_FAST_PATHS_OFF  | comma list (node-response,lazy-request,prepared,statement-deadlines,session-bound,batched-writes,batched-creates): one more server per name, ours with that fast path off |
 * | BENCH_SCENARIOS       | comma list: list,filter,get,create                       |
 * | BENCH_PROFILE=1       | run our server with `node --cpu-prof` (profiles in .cache/bench/profiles) |
 * | BENCH_PROFILE_ALL=1   | with BENCH_PROFILE: profile every server, the baselines too, to compare them |
 * | BENCH_PORT            | first port of the HTTP suite's servers (18080)          |
 * | BENCH_SCALE_ROWS      | the large table of the scale suite (1000000; quick 100000) |
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const quick = process.env.BENCH_QUICK === '1';
const int = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const list = (name: string, fallback: string[]) =>
  process.env[name]
    ? process.env[name]
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : fallback;

export const config = {
  quick,
  suites: list('BENCH_ONLY', [
    'http',
    'inprocess',
    'ergonomics',
    'test-stores',
    'first-store',
    'tabs',
    'browser-snapshot',
    'scale',
    'overload',
    'replica',
    'json-parse',
  ]),
  databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/petstore_bench',
  rounds: int('BENCH_ROUNDS', quick ? 2 : 10),
  seconds: int('BENCH_SECONDS', quick ? 2 : 3),
  warmupSeconds: quick ? 1 : 3,
  /** Unmeasured load on a server right before each of its measured rounds (0: none). */
  leadInSeconds: int('BENCH_LEAD_IN_SECONDS', 1),
  connections: int('BENCH_CONNECTIONS', 32),
  port: int('BENCH_PORT', 18_080),
  servers: list('BENCH_SERVERS', ['petstore', 'petstore-unshed', 'node-pg', 'fastify-pg']),
  ref: process.env.BENCH_REF ?? 'HEAD',
  fastPathsOff: list('BENCH_FAST_PATHS_OFF', []),
  scenarios: list('BENCH_SCENARIOS', ['list', 'filter', 'get', 'create']),
  profile: process.env.BENCH_PROFILE === '1',
  profileAll: process.env.BENCH_PROFILE_ALL === '1',
  scaleRows: int('BENCH_SCALE_ROWS', quick ? 100_000 : 1_000_000),
  /** Pets in the table during the HTTP suite (get-by-id picks among them). */
  httpRows: 10_000,
  /** Cores: the server on one, the load generator on the other (`taskset`). */
  serverCpu: process.env.BENCH_SERVER_CPU ?? '1',
  loadCpu: process.env.BENCH_LOAD_CPU ?? '0',
  apiKey: 'bench-key-0123456789abcdef',
  /** Where compiled servers, wrk scripts, profiles and the last report go (git-ignored). */
  workDir: join(repositoryRoot(), '.cache/bench/'),
};

/**
 * The repository: the nearest directory above this module with a package.json. Not a fixed
 * `../../`, because suites also run bundled from .cache/bench/suites/ (run.ts).
 */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
