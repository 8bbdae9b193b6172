import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError, describe } from './errors.js';

/** The generated key's file in the data directory, beside PGlite's files and the lock. */
export const KEY_FILE = 'petstore-router.api-key';

const KEY_TEXT = /^[A-Za-z0-9_-]{16,200}$/;

/** The key served when none is configured, and where it is kept. */
export interface KeptKey {
  key: string;
  file: string;
  /** True when this start generated it (the first start on this data directory). */
  created: boolean;
}

/**
 * The key of a data directory that has no configured key: generated at the first start and kept
 * in `KEY_FILE` (mode 0600, only the owner can read it), read back at every later start, so a
 * restart keeps the key clients already use. The file appears whole or not at all: it is written
 * under a temporary name and linked into place (link fails if another start was first).
 * Delete the file to get a new key at the next start.
 */
export function keptKey(dataDir: string): KeptKey {
  const file = join(resolve(dataDir), KEY_FILE);
  const existing = readKey(file);
  if (existing !== undefined) return { key: existing, file, created: false };
  const key = randomBytes(24).toString('base64url');
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(fd, `${key}\n`);
    } finally {
      closeSync(fd);
    }
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new CliError(`cannot keep the generated key in ${file}: ${describe(error)}`);
    const other = readKey(file); // another start linked its key first: use that one
    if (other !== undefined) return { key: other, file, created: false };
    throw new CliError(`cannot keep the generated key in ${file}: ${describe(error)}`);
  } finally {
    try {
      unlinkSync(temporary);
    } catch {
      // not created
    }
  }
  return { key, file, created: true };
}

/** The key in `file`, undefined when there is no file; a damaged file is an error (never replaced silently). */
function readKey(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`cannot read the generated key in ${file}: ${describe(error)}`);
  }
  const key = text.trim();
  if (!KEY_TEXT.test(key)) throw new CliError(`the key file ${file} is damaged: delete it and a new key is generated at the next start`);
  return key;
}

/** A warning (never the key) when the key file can be read by other users than its owner. */
export function keyFileWarning(file: string): string | undefined {
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  return `petstore-router: warning: ${file} is readable by other users (mode ${mode.toString(8)}): chmod 600 it\n`;
}
