import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CliError, describe } from './errors.js';
import { type KeptKey, keptKey } from './kept-key.js';

export interface Keys {
  keys: string[];
  /** True when no key was configured and one was generated (for this run, or kept in the data directory). */
  generated: boolean;
  /** Where a generated key is kept (PGlite in a data directory); absent: generated for this run only. */
  kept?: KeptKey;
}

/**
 * The API keys: from --keys-file (one per line, blank and `#` lines ignored), else from
 * PETSTORE_API_KEYS (comma-separated), else a generated key: kept in `dataDir` when given (the
 * same key at every start, kept-key.ts), else for this run only.
 */
export function loadKeys(keysFile: string | undefined, env: NodeJS.ProcessEnv, dataDir?: string): Keys {
  if (keysFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(keysFile, 'utf8');
    } catch (error) {
      throw new CliError(`cannot read the keys file ${keysFile}: ${describe(error)}`);
    }
    const keys = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    if (keys.length === 0) throw new CliError(`the keys file ${keysFile} contains no key`);
    return { keys, generated: false };
  }
  const fromEnv = (env.PETSTORE_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  if (fromEnv.length > 0) return { keys: fromEnv, generated: false };
  if (dataDir !== undefined) {
    const kept = keptKey(dataDir);
    return { keys: [kept.key], generated: true, kept };
  }
  return { keys: [randomBytes(24).toString('base64url')], generated: true };
}

/**
 * The message that shows a generated key, on stderr at every start (never on stdout or in the
 * access log), ready to paste: where it is kept, or that it lasts for this run only.
 */
export function generatedKeyMessage(key: string, url: string, kept?: KeptKey): string {
  const where = kept
    ? kept.created
      ? `generated one and kept it in ${kept.file} (mode 0600; delete the file for a new key)`
      : `using the key kept in ${kept.file}`
    : 'generated one for this run';
  return (
    `petstore-router: no API key configured (PETSTORE_API_KEYS or --keys-file); ${where}:\n` +
    `  curl -H 'Authorization: Bearer ${key}' ${url}/pets\n`
  );
}
