import { sha256Hex } from './sha256.js';

/** How many hex characters of the key's SHA-256 make its id. */
const KEY_ID_LENGTH = 12;

/**
 * The id of an API key for logs, metrics and events: the first 12 hex characters of its SHA-256,
 * the same whether the key is configured plain or as `sha256:<hex>`. It names a key without
 * revealing it (a 48-bit prefix of a digest cannot be turned back into the key).
 *
 * @example
 * ```ts
 * import { keyId } from 'petstore-router'
 * keyId('my-secret-key') // the keyId the access log and onResponse show for that key
 * ```
 */
export function keyId(key: string): string {
  const digest = /^sha256:[0-9a-fA-F]{64}$/.test(key) ? key.slice(7).toLowerCase() : sha256Hex(key);
  return digest.slice(0, KEY_ID_LENGTH);
}

/** The key id of an authenticated request's principal (the key's hex SHA-256); undefined without one. */
export function keyIdOfPrincipal(principal: string | undefined): string | undefined {
  return principal ? principal.slice(0, KEY_ID_LENGTH) : undefined;
}
