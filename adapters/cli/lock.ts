import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError, describe } from './errors.js';

export const LOCK_FILE = 'petstore-router.lock';

/**
 * Locks a PGlite data directory against a second process (PGlite has no lock of its own, and two
 * processes on one directory corrupt it): a lock file created with O_EXCL holding our pid. A lock
 * whose process is gone is stale and taken over. Returns the release function (also run on exit).
 */
export function lockDataDir(dir: string): () => void {
  const absolute = resolve(dir);
  try {
    mkdirSync(absolute, { recursive: true });
  } catch (error) {
    throw new CliError(`cannot create the data directory ${absolute}: ${describe(error)}`);
  }
  const file = join(absolute, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx'); // O_CREAT | O_EXCL: exactly one process wins
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return releaser(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new CliError(`cannot create the lock file ${file}: ${describe(error)}`);
      }
    }
    const owner = readOwner(file);
    if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
      throw new CliError(
        `data directory ${absolute} is in use by process ${owner} (if that process is not petstore-router, delete ${file})`,
      );
    }
    // Stale: its process is gone (or, in a container restarted with the same pid, it was us).
    try {
      unlinkSync(file);
    } catch {
      // another process took it over first: try again
    }
  }
  throw new CliError(`cannot lock the data directory ${absolute}`);
}

function releaser(file: string): () => void {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    try {
      if (readOwner(file) === process.pid) unlinkSync(file);
    } catch {
      // already gone
    }
  };
  process.on('exit', release);
  return release;
}

/** The pid in the lock file; waits briefly when the file is empty (its owner is writing it). */
function readOwner(file: string): number | undefined {
  for (let tries = 0; tries < 5; tries++) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8').trim();
    } catch {
      return undefined;
    }
    if (/^\d+$/.test(text)) return Number(text);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
  return undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
}
