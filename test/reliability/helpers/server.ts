import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as assert from 'uvu/assert';
import { tempDir } from '../../helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A fresh random key per test run, so finding it in a log is never a coincidence. */
export const KEY = `rel-${randomBytes(18).toString('base64url')}`;

/** A temporary directory for a PGlite data directory (never inside the project). */
export function tempDataDir(): string {
  return join(tempDir('petstore-rel-'), 'data');
}

export interface Server {
  /** `http://127.0.0.1:PORT/v1` from the listening line. */
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();
// A failing test must not leave servers behind: kill whatever is still running when we exit.
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts the standalone CLI (`adapters/cli.ts serve --port 0 ...`) with `PETSTORE_API_KEYS=KEY`
 * (or no key when `keys` is null) and resolves once it printed its listening line.
 */
export async function startServer(args: string[], options: { keys?: string | null; timeoutMs?: number } = {}): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.PETSTORE_API_KEYS;
  if (options.keys !== null) env.PETSTORE_API_KEYS = options.keys ?? KEY;
  const child = spawn(process.execPath, ['--import', 'tsx', 'adapters/cli.ts', 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const out = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out.stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out.stderr += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(`no listening line within ${options.timeoutMs ?? 60_000} ms`), options.timeoutMs ?? 60_000);
    const check = () => {
      const m = /listening on (http:\/\/\S+)\n/.exec(out.stdout);
      if (m) finish(() => resolve(m[1]!));
    };
    const fail = (why: string) => finish(() => reject(new Error(`${why}; stderr: ${out.stderr.slice(-2000)}`)));
    const onExit = () => fail('the server exited before listening');
    const finish = (then: () => void) => {
      clearTimeout(timer);
      child.stdout.off('data', check);
      child.off('exit', onExit);
      then();
    };
    child.stdout.on('data', check);
    child.once('exit', onExit);
  });
  return { url, child, stdout: () => out.stdout, stderr: () => out.stderr, exited };
}

/** Resolves with the exit, or rejects when the process has not exited within `ms`. */
export function exitWithin(server: Server, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not exit within ${ms} ms`)), ms);
    void server.exited.then((exit) => {
      clearTimeout(timer);
      resolve({ ...exit, ms: Date.now() - started });
    });
  });
}

/** kill -9 (SIGKILL): no shutdown code runs. Resolves once the process is gone. */
export async function killHard(server: Server): Promise<void> {
  server.child.kill('SIGKILL');
  await exitWithin(server, 10_000);
}

/** SIGTERM, then the exit within `ms` (a hung shutdown fails the test). */
export async function stopGracefully(server: Server, ms = 20_000) {
  server.child.kill('SIGTERM');
  return exitWithin(server, ms);
}

/**
 * The server's stdout and stderr hold no key, nor any 8 characters of one. `allowedOnce` is a
 * generated key that may appear, once, in its announcement line on stderr.
 */
export function assertNoKeyInLogs(server: Server, keys: readonly string[] = [KEY], allowedOnce?: string): void {
  let stderr = server.stderr();
  if (allowedOnce !== undefined) {
    const lines = stderr.split('\n').filter((line) => line.includes(allowedOnce));
    assert.is(lines.length, 1, 'the generated key is printed exactly once');
    assert.match(lines[0]!, /Authorization: Bearer /);
    stderr = stderr.replace(lines[0]!, '');
  }
  for (const [name, text] of [
    ['stdout', server.stdout()],
    ['stderr', stderr],
  ] as const) {
    for (const key of [...keys, ...(allowedOnce ? [allowedOnce] : [])]) {
      for (let i = 0; i + 8 <= key.length; i++) {
        assert.not.ok(text.includes(key.slice(i, i + 8)), `the server's ${name} shows part of a key: ${key.slice(i, i + 8)}`);
      }
    }
  }
}
