// Runs a documentation code block as a new file (README and the guides: test/readme.test.ts,
// test/docs-code.test.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
// Inside the project (not node_modules) so tsx resolves 'petstore-router' through tsconfig paths.
export const blockDir = join(root, '.cache', `blocks-${process.pid}`);

/** Runs `code` as a file; resolves once it exited, or once a server printed `listening on URL` and answered there. */
export function runBlock(code: string, name: string): Promise<{ code: number | null; stdout: string; stderr: string; served?: number }> {
  mkdirSync(blockDir, { recursive: true });
  const file = join(blockDir, `${name}.mts`);
  writeFileSync(file, code);
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: blockDir, // a relative dataDir lands here, removed afterwards
      env: { ...process.env, PORT: '0', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const kill = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const url = /listening on (\S+)/.exec(stdout)?.[1];
      if (url === undefined || child.killed) return;
      fetch(`${url}/health`).then(
        (res) => {
          clearTimeout(kill);
          child.kill('SIGTERM');
          resolve({ code: 0, stdout, stderr, served: res.status });
        },
        (error: unknown) => (child.kill('SIGKILL'), reject(error as Error)),
      );
    });
    child.on('exit', (exit) => {
      clearTimeout(kill);
      resolve({ code: exit, stdout, stderr });
    });
  });
}
