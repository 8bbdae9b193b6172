/**
 * First store and first start (issue 25): each figure is the time from spawning a fresh `node`
 * process to its first answer, median of several processes, each ours next to its bare-PGlite
 * baseline in the same run, runs interleaved so load drifts hit both, each pair in turn ours first
 * then baseline first, so what a run leaves behind (a new data directory still being written back) weighs on both alike:
 *
 * - the first `createTestStore()` answering its first request, against a bare in-memory
 *   `PGlite.create()` being ready;
 * - `petstore-router serve` on a new data directory answering its first request, against a bare
 *   PGlite creating a new data directory;
 * - the same on an existing data directory, against a bare PGlite opening it: with the page cache
 *   warm (the run before read the same files), and cold (every file either side reads evicted from
 *   the page cache first with posix_fadvise DONTNEED, through python3: data directory, dist/,
 *   node_modules, Node's compile cache).
 *
 * Ours start from the pre-migrated snapshots: the per-machine cache (the migrated snapshot and
 * the test stores' one) is filled once before the timed runs (its making is reported apart). Uses the built package (`npm run build`).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { config } from './config.js';
import { fmt, median, table } from './stats.js';

const root = new URL('../../', import.meta.url).pathname;
const RUNS = Number(process.env.BENCH_FIRST_RUNS ?? (config.quick ? 6 : 8)); // even: each order runs as often

/** Scripts each run in a fresh process; each prints one line once it has its answer. */
const scripts = {
  'bare-memory.mjs': `import { PGlite } from '@electric-sql/pglite';
const pglite = await PGlite.create();
console.log('ready');
await pglite.close();`,
  // Stopped with SIGTERM like serve, and like serve it closes its directory before it exits.
  'bare-dir.mjs': `import { PGlite } from '@electric-sql/pglite';
process.on('SIGTERM', () => {});
const pglite = await PGlite.create({ dataDir: process.argv[2] });
console.log('ready');
await pglite.close();`,
  'test-store.mjs': `import { createTestStore } from 'petstore-router/testing';
const { fetch, key, close } = await createTestStore();
const res = await fetch(new Request('http://test/v1/pets', { headers: { authorization: 'Bearer ' + key } }));
if (res.status !== 200) throw new Error('first answer ' + res.status);
console.log('ready');
await close();`,
  'warm-cache.mjs': `import { createPGliteDatabase } from 'petstore-router/pglite';
import { createTestStore } from 'petstore-router/testing';
await (await createPGliteDatabase()).destroy();
await (await createTestStore()).close();`,
};

/**
 * ms from spawn until the child prints a line matching `ready` (and `after` is done); the child is
 * then stopped, and the promise settles once it has exited, so no run overlaps the next one.
 */
function timeTo(args: string[], ready: RegExp, env: NodeJS.ProcessEnv = {}, after?: (line: string) => Promise<void>): Promise<number> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child: ChildProcess = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let done = false;
    let result: { ms: number } | { error: Error } | undefined;
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => ready.test(l));
      if (done || line === undefined) return;
      done = true;
      (after ? after(line) : Promise.resolve()).then(
        () => {
          result = { ms: performance.now() - began };
          child.kill('SIGTERM');
        },
        (error: unknown) => {
          result = { error: error as Error };
          child.kill('SIGKILL');
        },
      );
    });
    child.on('close', (code) => {
      if (result === undefined) reject(new Error(`${args.join(' ')} exited (${code}) before answering: ${err.slice(-2000)}`));
      else if ('error' in result) reject(result.error);
      else resolve(result.ms);
    });
  });
}

/** Files a start reads: the data directories, the package, its dependencies, Node's compile cache. */
const EVICTED = [join(root, 'dist'), join(root, 'node_modules'), join(tmpdir(), 'node-compile-cache')];

/** Drops `paths` (files and directory trees) from the page cache, so the next start reads the disk. */
async function evict(paths: string[]): Promise<void> {
  const script = `import os, sys
for top in sys.argv[1:]:
    for d, _, names in os.walk(top):
        for n in names:
            try:
                fd = os.open(os.path.join(d, n), os.O_RDONLY)
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                os.close(fd)
            except OSError:
                pass`;
  await promisify(execFile)('python3', ['-c', script, ...paths]);
}

/** `serve` answering its first request: the listening line, then one GET with the key. */
function serveFirstAnswer(dataDir: string): Promise<number> {
  return timeTo(
    [join(root, 'dist/cli.js'), 'serve', '--data-dir', dataDir, '--port', '0', '--no-docs'],
    /^listening on /,
    { PETSTORE_API_KEYS: 'bench-key', DATABASE_URL: '' },
    async (line) => {
      const url = line.replace('listening on ', '').trim();
      const res = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer bench-key' } });
      if (res.status !== 200) throw new Error(`serve's first answer ${res.status}`);
      await res.text();
    },
  );
}

export async function runFirstStore(log: (s: string) => void): Promise<string> {
  if (!existsSync(join(root, 'dist/cli.js'))) throw new Error('first-store: run `npm run build` first');
  const dir = join(config.workDir, 'first-store');
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(scripts)) writeFileSync(join(dir, name), text);
  const script = (name: keyof typeof scripts) => join(dir, name);
  const scratch = mkdtempSync(join(dir, 'data-'));
  try {
    // The snapshot cache is made once per machine: made here (or found), so the runs below load it.
    const loadBefore = loadavg()[0]!;
    const t = performance.now();
    await promisify(execFile)(process.execPath, [script('warm-cache.mjs')], { cwd: root });
    const warm = performance.now() - t;
    log(`  snapshot cache ready after ${fmt.int(warm)} ms`);

    const f: Record<string, number[]> = {
      bareMemory: [],
      testStore: [],
      bareNew: [],
      serveNew: [],
      bareOpen: [],
      serveOpen: [],
      bareCold: [],
      serveCold: [],
    };
    const bareOpenDir = join(scratch, 'bare-open');
    const serveOpenDir = join(scratch, 'serve-open');
    await timeTo([script('bare-dir.mjs'), bareOpenDir], /^ready$/); // existing directories for the "open" pairs
    await serveFirstAnswer(serveOpenDir);
    for (let i = 0; i < RUNS; i++) {
      const pairs: [() => Promise<number>, number[], () => Promise<number>, number[]][] = [
        [
          () => timeTo([script('test-store.mjs')], /^ready$/),
          f.testStore!,
          () => timeTo([script('bare-memory.mjs')], /^ready$/),
          f.bareMemory!,
        ],
        [
          () => serveFirstAnswer(join(scratch, `serve-new-${i}`)),
          f.serveNew!,
          () => timeTo([script('bare-dir.mjs'), join(scratch, `bare-new-${i}`)], /^ready$/),
          f.bareNew!,
        ],
        [() => serveFirstAnswer(serveOpenDir), f.serveOpen!, () => timeTo([script('bare-dir.mjs'), bareOpenDir], /^ready$/), f.bareOpen!],
        [
          async () => (await evict([serveOpenDir, bareOpenDir, ...EVICTED]), serveFirstAnswer(serveOpenDir)),
          f.serveCold!,
          async () => (await evict([serveOpenDir, bareOpenDir, ...EVICTED]), timeTo([script('bare-dir.mjs'), bareOpenDir], /^ready$/)),
          f.bareCold!,
        ],
      ];
      for (const [ours, oursTimes, bare, bareTimes] of pairs) {
        const first = i % 2 === 0 ? ([ours, oursTimes] as const) : ([bare, bareTimes] as const);
        const second = i % 2 === 0 ? ([bare, bareTimes] as const) : ([ours, oursTimes] as const);
        first[1].push(await first[0]());
        second[1].push(await second[0]());
      }
      log(
        `  run ${i + 1}/${RUNS}: test store ${fmt.int(f.testStore!.at(-1)!)} / bare ${fmt.int(f.bareMemory!.at(-1)!)} ms; ` +
          `serve new ${fmt.int(f.serveNew!.at(-1)!)} / bare ${fmt.int(f.bareNew!.at(-1)!)} ms; serve existing ${fmt.int(f.serveOpen!.at(-1)!)} / bare ${fmt.int(f.bareOpen!.at(-1)!)} ms; ` +
          `cold ${fmt.int(f.serveCold!.at(-1)!)} / bare ${fmt.int(f.bareCold!.at(-1)!)} ms`,
      );
    }
    const m = (k: string) => median(f[k]!);
    const row = (what: string, ours: string, bare: string, target: number, baseline: string) => {
      const ratio = m(ours) / m(bare);
      return [
        what,
        fmt.int(m(ours)),
        fmt.int(m(bare)),
        `${ratio.toFixed(2)}x`,
        `<= ${target}x ${ratio <= target ? 'met' : 'MISSED'}`,
        baseline,
      ];
    };
    return (
      table(
        ['from spawn to', 'ours median ms', 'baseline median ms', 'ratio', 'target', 'baseline'],
        [
          row(
            'first `createTestStore()` answers its first request',
            'testStore',
            'bareMemory',
            0.35,
            'bare in-memory `PGlite.create()` ready',
          ),
          row(
            '`serve` on a new data directory answers its first request',
            'serveNew',
            'bareNew',
            0.5,
            'bare PGlite on a new data directory ready',
          ),
          row(
            '`serve` on an existing data directory answers its first request (page cache warm)',
            'serveOpen',
            'bareOpen',
            1.3,
            'bare PGlite opening it ready',
          ),
          row(
            '`serve` on an existing data directory answers its first request (page cache cold)',
            'serveCold',
            'bareCold',
            1.3,
            'bare PGlite opening it ready, page cache cold',
          ),
        ],
      ) +
      `\n\nMedians of ${RUNS} fresh processes each, interleaved. The snapshot cache was made (or found) first: ${fmt.int(warm)} ms. Load average (1 min): ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after.`
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
