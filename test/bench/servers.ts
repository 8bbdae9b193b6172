/**
 * The servers under test, each a "server command": compiled the same way (tsup/esbuild, ESM,
 * target node20, npm dependencies external, exactly as our published build), started with
 * `taskset -c <server core> node <file> --database URL --port N`, keys from PETSTORE_API_KEYS,
 * ready when it prints `listening on http://…`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'tsup';
import { config } from './config.js';

const root = new URL('../../', import.meta.url).pathname;

export interface ServerDef {
  name: string;
  label: string;
  entry: string;
  args: string[];
  /**
   * The source tree `entry` is in (and relative to), relative to the repository (default: the repository).
   * Its own tsconfig.json resolves `petstore-router` (paths) to that tree's src/.
   */
  tree?: string;
}

/** Our server: the standalone CLI once it exists, else the bench's stand-in bridge. */
function petstoreEntry(): { entry: string; args: string[]; label: string } {
  for (const candidate of ['adapters/cli.ts', 'adapters/cli/index.ts', 'adapters/cli/main.ts']) {
    if (existsSync(join(root, candidate)) && committed(candidate))
      return { entry: candidate, args: ['serve'], label: 'petstore-router (CLI)' };
  }
  return { entry: 'test/bench/servers/bridge.ts', args: [], label: 'petstore-router (bench bridge)' };
}

/** Only a committed CLI counts: a file another engineer is still writing may not run yet. */
function committed(path: string): boolean {
  try {
    execFileSync('git', ['ls-files', '--error-unmatch', path], { cwd: root, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function serverDefs(): ServerDef[] {
  const ours = petstoreEntry();
  const all: ServerDef[] = [
    { name: 'petstore', label: ours.label, entry: ours.entry, args: ours.args },
    // The same server with load shedding off: the cost of its accounting, beside the default.
    { name: 'petstore-unshed', label: `${ours.label}, --max-in-flight 0`, entry: ours.entry, args: [...ours.args, '--max-in-flight', '0'] },
    { name: 'node-pg', label: 'node:http + pg', entry: 'test/bench/baselines/node-pg.ts', args: [] },
    { name: 'fastify-pg', label: 'Fastify 5 + pg', entry: 'test/bench/baselines/fastify-pg.ts', args: [] },
  ];
  if (config.servers.includes('petstore-ref')) {
    // For A/B runs: our server as of a git ref (BENCH_REF, default HEAD), beside the working tree.
    const ref = refTree(config.ref);
    all.push({ name: 'petstore-ref', label: `petstore-router @ ${config.ref}`, entry: ours.entry, args: ours.args, tree: ref });
  }
  const chosen = all.filter((s) => config.servers.includes(s.name));
  // The fast-path table (docs/performance.md): our server with one fast path off, per name, in
  // the same rounds; the report's `petstore / petstore-no-X` CPU ratio is that path's saving.
  for (const name of config.fastPathsOff) {
    chosen.push({
      name: `petstore-no-${name}`,
      label: `petstore-router without ${name}`,
      entry: 'test/bench/servers/switchable.ts',
      args: ['--off', name],
    });
  }
  return chosen;
}

/** The tree of a git ref, extracted (git archive) under the work directory; its imports resolve in it. */
function refTree(ref: string): string {
  const dir = join(config.workDir, 'ref');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${JSON.stringify(ref)} | tar -x -C ${JSON.stringify(dir)}`], { cwd: root, stdio: 'inherit' });
  return dir.slice(root.length);
}

/**
 * Compiles every server once, with the same bundler settings, into the bench work directory: one
 * build per source tree. The adapters import the core as `petstore-router`, which each tree's
 * tsconfig.json maps to its own src/; esbuild applies one tsconfig per build, so building the
 * ref tree together with the working tree bundled the working tree's core into both (A/B runs
 * before 2026-11-23T01:30Z compared the same core, docs/performance.md).
 */
export async function compile(defs: ServerDef[]): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const trees = new Map<string, ServerDef[]>();
  for (const d of defs) trees.set(d.tree ?? '', [...(trees.get(d.tree ?? '') ?? []), d]);
  for (const [tree, group] of trees) {
    const outDir = join(config.workDir, tree === '' ? 'servers' : `servers-${group[0]!.name}`);
    if (tree !== '') rmSync(outDir, { recursive: true, force: true });
    const built = await bundle(Object.fromEntries(group.map((d) => [d.name, d.entry])), outDir, tree);
    for (const d of group) files.set(d.name, built.get(d.name)!);
  }
  return files;
}

/**
 * Bundles entries (name -> file relative to the tree) as our published build does (tsup.config.ts:
 * esbuild, ESM, target node20, npm dependencies external, our own code bundled) into `outDir`;
 * returns each entry's output file. Code the bench runs in its own process goes through this too:
 * run as TypeScript through tsx it would carry esbuild's `keepNames` (a `__name()` call for every
 * closure made per call, ~1.6 us per create in a profile), which no user of the package runs.
 */
export async function bundle(entries: Record<string, string>, outDir: string, tree = ''): Promise<Map<string, string>> {
  mkdirSync(outDir, { recursive: true });
  await build({
    config: false,
    entry: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, join(root, tree, file)])),
    tsconfig: join(root, tree, 'tsconfig.json'),
    outDir,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    // As in our published build: dynamic imports stay separate chunks, so the PostgreSQL server
    // never loads the PGlite driver.
    splitting: true,
    silent: true,
    // Dependencies stay in node_modules, as for users of the package; our own code is bundled.
    external: ['@electric-sql/pglite', 'pg', 'kysely', 'valibot', 'itty-router', 'fastify', '@valibot/to-json-schema', 'tsup'],
    outExtension: () => ({ js: '.mjs' }),
  });
  return new Map(Object.keys(entries).map((name) => [name, join(outDir, `${name}.mjs`)]));
}

export interface RunningServer {
  def: ServerDef;
  pid: number;
  origin: string;
  stop(): Promise<void>;
}

export async function start(def: ServerDef, file: string, port: number, profile = false): Promise<RunningServer> {
  const nodeArgs = profile ? ['--cpu-prof', `--cpu-prof-dir=${join(config.workDir, 'profiles')}`] : [];
  const child: ChildProcess = spawn(
    'taskset',
    [
      '-c',
      config.serverCpu,
      process.execPath,
      ...nodeArgs,
      file,
      ...def.args,
      '--database',
      config.databaseUrl,
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
    ],
    // Run from the repository, so external imports resolve from its node_modules.
    { cwd: root, env: { ...process.env, PETSTORE_API_KEYS: config.apiKey, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${def.name} did not start in 30 s:\n${stderr}`)), 30_000);
    let stdout = '';
    child.stdout!.on('data', (d) => {
      stdout += d;
      if (/listening on http:\/\//.test(stdout)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${def.name} exited with ${code}:\n${stderr}`));
    });
  });
  // taskset execs node, so the child's pid is the server's.
  return {
    def,
    pid: child.pid!,
    origin: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
