import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

// SHA-256 must be synchronous (it hashes the API key of every request): `crypto.subtle.digest` is
// not. So the runtime's own one-shot hash where it offers `node:crypto` (reached through
// `process.getBuiltinModule`, so the core imports nothing from Node), else @noble/hashes.

type HashHex = (text: string) => string;

/** `node:crypto`'s `hash('sha256', text, 'hex')` where the runtime offers it, checked once against a known answer. */
const runtimeHex: HashHex | undefined = (() => {
  try {
    const load = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
    const hash = (load?.('node:crypto') as { hash?: (algorithm: string, data: string, encoding: 'hex') => string } | undefined)?.hash;
    if (typeof hash !== 'function') return undefined;
    const hex: HashHex = (text) => hash('sha256', text, 'hex');
    return hex('abc') === 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' ? hex : undefined;
  } catch {
    return undefined;
  }
})();

const libraryHex: HashHex = (text) => bytesToHex(sha256(utf8ToBytes(text)));

/** Lower-case hex SHA-256 of `text` as UTF-8. */
export const sha256Hex: HashHex = runtimeHex ?? libraryHex;

/** @internal For tests: the library's hash, and whether {@link sha256Hex} is the runtime's. */
export const sha256Sources = { libraryHex, usesRuntime: runtimeHex !== undefined };
