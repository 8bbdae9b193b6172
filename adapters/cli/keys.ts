import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CliError, describe } from './errors.js';

export interface Keys {
  keys: string[];
  /** True when no key was configured and one was generated for this run. */
  generated: boolean;
}

/**
 * The API keys: from --keys-file (one per line, blank and `#` lines ignored), else from
 * PETSTORE_API_KEYS (comma-separated), else a random key generated for this run.
 */
export function loadKeys(keysFile: string | undefined, env: NodeJS.ProcessEnv): Keys {
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
  return { keys: [randomBytes(24).toString('base64url')], generated: true };
}

/** The one message that shows a generated key: printed once, on stderr, ready to paste. */
export function generatedKeyMessage(key: string, url: string): string {
  return (
    'petstore-router: no API key configured (PETSTORE_API_KEYS or --keys-file); generated one for this run:\n' +
    `  curl -H 'Authorization: Bearer ${key}' ${url}/pets\n`
  );
}
