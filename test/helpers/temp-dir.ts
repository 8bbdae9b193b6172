// Test scratch directories: each is removed when the process that made it exits, pass or fail,
// so a suite run leaves nothing in the temp dir (browser profiles alone take 500 MB a run).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      console.warn(`could not remove ${dir}: ${(error as Error).message}`); // a leftover, never a failed run
    }
  }
});

/** A new directory `<tmp>/<prefix>XXXXXX`, removed at this process's exit. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
