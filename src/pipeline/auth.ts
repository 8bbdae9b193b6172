import { ApiError, ErrorCode } from '../errors.js';
import { sha256Hex } from '../http/sha256.js';
import { type KeysOption, checkKeyList } from '../options/keys.js';

export type { KeysOption };

/**
 * The principal of a request carrying an accepted key, the hex SHA-256 of that key (never the key
 * itself), which scopes per-client state such as Idempotency-Key records; a 401 ApiError otherwise.
 * Synchronous for a list of keys (no promise per request), a promise for a verifier function.
 */
export type Authenticate = (request: Request) => string | Promise<string>;

// RFC 6750 b64token, plus any other visible ASCII except ',' (a comma means several
// Authorization headers were folded together, which is a 401).
const CREDENTIALS = /^bearer +([\x21-\x2b\x2d-\x7e]+)$/i;
const SHA256_KEY = /^sha256:([0-9a-fA-F]{64})$/;

function unauthorized(message: string, error?: 'invalid_request' | 'invalid_token'): ApiError {
  const challenge = error ? `Bearer error="${error}"` : 'Bearer';
  return new ApiError({ status: 401, code: ErrorCode.unauthorized, message, headers: { 'www-authenticate': challenge } });
}

/**
 * Compares a digest against every configured digest without an early exit, so timing says
 * nothing about which key, or which character of a key, matched. Both sides are lower-case hex
 * SHA-256 digests (64 characters), so the length of the presented key does not show either.
 * Exported for a structural test (every character of every accepted digest is read whatever the
 * input); not part of the public API.
 */
export function matchesAny(digest: string, accepted: readonly string[]): boolean {
  let found = 0;
  for (const key of accepted) {
    let diff = 0;
    for (let i = 0; i < 64; i++) diff |= key.charCodeAt(i) ^ digest.charCodeAt(i);
    found |= diff === 0 ? 1 : 0;
  }
  return found === 1;
}

/** Builds the authenticator for `keys`; plain keys are hashed once, here, not per request. */
export function createAuthenticator(keys: KeysOption): Authenticate {
  if (typeof keys === 'function') {
    return async (request) => {
      const key = presentedKey(request);
      if ((await keys(key, request)) !== true) throw invalidKey();
      return sha256Hex(key);
    };
  }
  checkKeyList(keys);
  const accepted = keys.map((k) => (SHA256_KEY.test(k) ? k.slice(7).toLowerCase() : sha256Hex(k)));
  // The plain keys of the option, each with its digest: a presented plain key is found without
  // hashing it again on every request. It holds nothing the option does not already hold (the
  // plain keys are in the caller's array), never grows, and a lookup tells no more than the
  // answer's status does (accepted or not). `sha256:` keys are not in it: their plain form is
  // never kept.
  const plain = new Map<string, string>();
  keys.forEach((k, i) => SHA256_KEY.test(k) || plain.set(k, accepted[i]!));
  // Any other key is hashed synchronously (see sha256.ts: no thread-pool round trip per request)
  // and compared with every accepted digest; the digest is also the principal (idempotency keys
  // and rate limits are scoped by it).
  return (request) => {
    const key = presentedKey(request);
    const known = plain.get(key);
    if (known !== undefined) return known;
    const digest = sha256Hex(key);
    if (!matchesAny(digest, accepted)) throw invalidKey();
    return digest;
  };
}

/** The key of `Authorization: Bearer <key>`, or a 401 saying what is wrong with the header. */
function presentedKey(request: Request): string {
  const header = request.headers.get('authorization');
  if (header === null) throw unauthorized('an API key is required: send Authorization: Bearer <key>');
  const m = CREDENTIALS.exec(header);
  if (!m) throw unauthorized('malformed Authorization header: expected Bearer <key>', 'invalid_request');
  return m[1]!;
}

function invalidKey(): ApiError {
  return unauthorized('the API key is not valid', 'invalid_token');
}
