/**
 * `npm test`: uvu's test files run in parallel, each worker a process that runs one file at a time
 * as uvu's CLI does (scripts/uvu-worker.ts); the slowest files known start first. Takes uvu's
 * arguments (`[dir] [pattern] -i IGNORE -r MODULE -c false`). Prints each file's report whole as
 * it finishes, then one `Total:`/`Passed:`/`Skipped:` summary (what `.ci/run` sums), and fails
 * as scripts/uvu-strict.ts does: a failing file, a file with no report, or tests that neither
 * passed nor failed (scripts/uvu-totals.ts).
 *
 * With DATABASE_URL set, each worker gets a database of its own (`<name>_<pid>_w<N>`, made for the
 * run and dropped at the end), and PGBOUNCER_URL, REPLICA_URL and REPLICA_PGBOUNCER_URL point at it too:
 * files that reset tables never meet. TEST_WORKERS sets how many workers run (default below).
 *
 * Usage: node --import tsx scripts/uvu-parallel.ts [uvu arguments...]
 */
import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parse } from 'uvu/parse';
import { workerDatabases } from './test-databases.js';
import { FILE_DONE, uvuFailure, uvuTotals } from './uvu-totals.js';

/** Most files wait on sockets, child processes or PostgreSQL: twice the cores keeps the cores busy. */
const WORKERS = Number(process.env.TEST_WORKERS) || Math.max(2, availableParallelism() * 2);

/** The files that take longest (their own CPU and waits), started first so no worker is left with one at the end. */
const SLOWEST_FIRST: readonly string[] = [
  'browser-store.test.ts',
  'snapshot.test.ts',
  'browser-tabs.test.ts',
  'mounting.test.ts',
  'cli-operating.test.ts',
  'cli.test.ts',
  'browser-vite.test.ts',
  'hostile.node.test.ts',
  'test-stores.test.ts',
  'storage.test.ts',
  'clean-exit.test.ts',
  'snapshot-file.test.ts',
  'readme.test.ts',
  'database-state.test.ts',
  'hostile.test.ts',
  'behaviour.node.test.ts',
];

interface Result {
  name: string;
  output: string;
  code: number;
  ms: number;
  cpu: number;
}

const args = parseArgs(process.argv.slice(2));
const { suites } = await parse(args.dir, args.pattern, { ignore: args.ignore, cwd: args.cwd });
const rank = (name: string) => (SLOWEST_FIRST.includes(name) ? SLOWEST_FIRST.indexOf(name) : SLOWEST_FIRST.length);
const queue = [...suites].sort((a, b) => rank(a.name) - rank(b.name));
const started = performance.now();
const results: Result[] = [];
const count = Math.min(WORKERS, queue.length);
const databases = await workerDatabases(count);
const live = new Set<ChildProcess>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // Stopped (Ctrl-C, a CI timeout): no file starts after this; the workers' databases are still dropped.
    queue.length = 0;
    for (const child of live) child.kill(signal);
    process.exitCode = 1;
  });
}

try {
  await Promise.all(databases.envs.map((env) => worker(env)));
} finally {
  await databases.drop();
}
report();

/** Runs files from the queue in one worker process, and in a new one if that one dies, until none are left. */
async function worker(env: Record<string, string>): Promise<void> {
  while (queue.length > 0) await workerProcess(env);
}

function workerProcess(env: Record<string, string>): Promise<void> {
  const child = fork(fileURLToPath(new URL('uvu-worker.ts', import.meta.url)), [], {
    execArgv: [...new Set(['tsx', ...args.require])].flatMap((module) => ['--import', module]),
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, ...env, ...(args.color ? { FORCE_COLOR: '1' } : {}) },
  });
  live.add(child);
  let current: { name: string; started: number } | undefined;
  let output = '';
  let exitTimer: NodeJS.Timeout | undefined;
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    output += chunk;
    for (let at = output.indexOf(FILE_DONE); at !== -1 && current; at = output.indexOf(FILE_DONE)) {
      const end = output.indexOf('\n', at);
      if (end === -1) break;
      const { code, cpu } = JSON.parse(output.slice(at + FILE_DONE.length, end)) as { code: number; cpu: number };
      finish({ name: current.name, output: output.slice(0, at), code, cpu, ms: performance.now() - current.started });
      output = output.slice(end + 1);
      current = undefined;
      if (ready) dispatch();
    }
  });
  // The worker asks for its next file over IPC, which may overtake the end of the last file's report
  // on stdout: the next file goes only once that report is in, so no report is counted under the next name.
  let ready = false;
  child.on('message', () => {
    if (current) ready = true;
    else dispatch();
  });
  const dispatch = () => {
    ready = false;
    const next = queue.shift();
    if (next) {
      current = { name: next.name, started: performance.now() };
      child.send(next);
      return;
    }
    child.send('end');
    // A file that leaves a handle open would keep its worker, and so `npm test`, running forever.
    exitTimer = setTimeout(() => {
      process.stderr.write(`uvu-parallel: a worker did not exit 60 s after its last file: a test left a handle open\n`);
      finish({ name: '(worker exit)', output: '', code: 1, ms: 0, cpu: 0 });
      child.kill('SIGKILL');
    }, 60_000);
  };
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearTimeout(exitTimer);
      live.delete(child);
      if (current) {
        const why = `\nuvu-parallel: the worker running ${current.name} exited (${signal ?? `code ${code}`}) before the file's report\n`;
        finish({ name: current.name, output: output + why, code: code || 1, ms: performance.now() - current.started, cpu: 0 });
      } else if (code !== 0 && code !== null) {
        finish({ name: '(worker exit)', output: `uvu-parallel: a worker exited with code ${code} after its files\n`, code, ms: 0, cpu: 0 });
      }
      resolve();
    });
  });
}

/** Prints a file's report without its totals (only the summary's are summed), and keeps its result. */
function finish(result: Result): void {
  results.push(result);
  const body = result.output.replace(/^\s*(Total|Passed|Skipped|Duration):.*$\n?/gm, '').trimEnd();
  if (body) process.stdout.write(`${body}\n`);
}

function report(): void {
  let total = 0;
  let passed = 0;
  let skipped = 0;
  const failures: string[] = [];
  for (const result of results) {
    const totals = uvuTotals(result.output);
    if (totals) {
      total += totals.total;
      passed += totals.passed;
      skipped += totals.skipped;
    }
    const failure = uvuFailure(result.output, result.code);
    if (failure) failures.push(`${result.name}: ${failure}`);
  }
  const ran = new Set(results.map((result) => result.name));
  for (const suite of suites) if (!ran.has(suite.name)) failures.push(`${suite.name}: never ran`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`\n  Total:     ${total}\n  Passed:    ${passed}\n  Skipped:   ${skipped}\n`);
  process.stdout.write(`  Duration:  ${seconds}s (${suites.length} files, ${count} workers)\n\n`);
  if (process.env.TEST_TIMINGS) {
    for (const { name, ms, cpu } of [...results].sort((a, b) => b.ms - a.ms)) {
      process.stdout.write(`${(ms / 1000).toFixed(1).padStart(7)}s wall ${(cpu / 1000).toFixed(1).padStart(7)}s cpu  ${name}\n`);
    }
  }
  if (failures.length > 0) {
    process.stderr.write(`uvu-parallel: ${failures.length} file(s) failed:\n  ${failures.join('\n  ')}\n`);
    process.exitCode = 1;
  }
}

interface Args {
  dir: string | undefined;
  pattern: string | undefined;
  ignore: string[];
  require: string[];
  cwd: string;
  color: boolean;
}

/** uvu's own options (`uvu [dir] [pattern] -i -r -C -c`), as its CLI reads them. */
function parseArgs(argv: readonly string[]): Args {
  const out: Args = { dir: undefined, pattern: undefined, ignore: [], require: [], cwd: '.', color: true };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new TypeError(`uvu-parallel: ${arg} needs a value`);
      return next;
    };
    if (arg === '-i' || arg === '--ignore') out.ignore.push(value());
    else if (arg === '-r' || arg === '--require') out.require.push(value());
    else if (arg === '-C' || arg === '--cwd') out.cwd = value();
    else if (arg === '-c' || arg === '--color') out.color = value() !== 'false';
    else if (arg.startsWith('-')) throw new TypeError(`uvu-parallel: unknown option ${arg}`);
    else positional.push(arg);
  }
  [out.dir, out.pattern] = positional;
  return out;
}
