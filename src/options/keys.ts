// `keys` of createPetStore: one key, a list of plain keys or `sha256:` digests, or a verifier.
// A message never echoes a key.
import { isThenable, optionError } from './check.js';

/**
 * Accepted API keys: a list (plain keys, or `sha256:<64 hex>` digests so plain keys need not sit
 * in config), or an async verifier for keys kept elsewhere. Several keys at once allow rotation.
 */
export type KeysOption = readonly string[] | ((key: string, request: Request) => boolean | Promise<boolean>);

/** `keys` as `createPetStore` accepts it: one key is the same as a list of that key. */
export type KeysInput = string | KeysOption;

const WHERE = 'createPetStore';
// RFC 6750 b64token, plus any other visible ASCII except ',' (a comma would read as two keys).
const KEY = /^[\x21-\x2b\x2d-\x7e]+$/;
const SHA256_KEY = /^sha256:[0-9a-fA-F]{64}$/;

/** `keys` as a list or a verifier (a single string key is taken as a list of that key), its shape checked. */
export function checkKeysShape(keys: unknown): KeysOption {
  if (typeof keys === 'string') return [keys];
  if (Array.isArray(keys) || typeof keys === 'function') return keys as KeysOption;
  throw optionError(
    WHERE,
    'options.keys',
    'a key, a list of keys or a verifier (key, request) => boolean',
    keys,
    isThenable(keys) ? undefined : "e.g. keys: [process.env.API_KEY] or keys: ['sha256:<hex>']",
  );
}

/** Checks each key of a list: at least one, each visible ASCII without commas, digests of 64 hex digits. */
export function checkKeyList(keys: readonly unknown[]): void {
  if (keys.length === 0) throw optionError(WHERE, 'options.keys', 'a list of at least one key', keys, undefined, 'an empty list');
  keys.forEach((key, i) => {
    const got = typeof key === 'string' ? (key === '' ? 'an empty string' : 'a string') : undefined;
    if (typeof key !== 'string' || !KEY.test(key)) {
      throw optionError(WHERE, `options.keys[${i}]`, 'a non-empty string of visible ASCII without commas', key, undefined, got);
    }
    if (key.startsWith('sha256:') && !SHA256_KEY.test(key)) {
      throw optionError(
        WHERE,
        `options.keys[${i}]`,
        "a key, or 'sha256:' and 64 hex digits",
        key,
        undefined,
        'sha256: and no 64 hex digits',
      );
    }
  });
}
