const encoder = new TextEncoder();
/**
 * Scratch space for the UTF-8 text being hashed, grown on demand and reused: hashing is
 * synchronous, so no two requests ever use it at once, and reuse spares an allocation per answer.
 */
let bytes = new Uint8Array(1 << 16);
let words = new Int32Array(bytes.buffer);

/**
 * Entity tags of GET answers: a 64-bit non-cryptographic hash of the `Link` header and the body
 * (two 32-bit multiply-xor lanes over the UTF-8 bytes read as 32-bit words, cyrb53's final mixing
 * kept to its full width), plus the byte length. The tag only has to change when the answer
 * changes, and a client only sends back tags it was given, so a fast hash is enough: a false 304
 * would need two different answers of equal length with equal 64-bit hashes. Words are read in
 * the platform's byte order, so a big-endian machine gives other tags (a 200 instead of a 304,
 * never a wrong 304).
 */
export function entityTag(link: string | null, body: string): string {
  // The bytes hashed are UTF-8 of `${link}\n${body}` (or of the body alone), but encoded in two
  // parts: concatenating would build a new string of the whole body for the encoder to flatten,
  // while the body itself stays unflattened for the writer (twice the copying of a large page).
  const length = link === null ? body.length : link.length + 1 + body.length;
  // UTF-8 takes at most 3 bytes per UTF-16 code unit; room for the zero padding of the last word.
  if (length * 3 + 4 > bytes.length) {
    bytes = new Uint8Array((length * 3 + 7) & ~3);
    words = new Int32Array(bytes.buffer);
  }
  let written = 0;
  if (link !== null) {
    written = encoder.encodeInto(link, bytes).written;
    bytes[written++] = 0x0a;
  }
  written += encoder.encodeInto(body, written === 0 ? bytes : bytes.subarray(written)).written;
  bytes.fill(0, written, (written + 3) & ~3);
  const count = (written + 3) >>> 2;
  const w = words;
  let h1 = 0xdeadbeef ^ written;
  let h2 = 0x41c6ce57 ^ written;
  for (let i = 0; i < count; i++) {
    const word = w[i]!;
    h1 = Math.imul(h1 ^ word, 2654435761);
    h2 = Math.imul(h2 ^ word, 1597334677);
    h1 ^= h1 >>> 15;
    h2 ^= h2 >>> 13;
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `"${written.toString(36)}-${hex8(h2)}${hex8(h1)}"`;
}

/** Two lower-case hex digits for each byte value: a table read is far cheaper than `toString(16)` + `padStart`. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The 8 lower-case hex digits of a 32-bit value. */
function hex8(n: number): string {
  return HEX[n >>> 24]! + HEX[(n >>> 16) & 255]! + HEX[(n >>> 8) & 255]! + HEX[n & 255]!;
}

// An entity-tag (RFC 9110 section 8.8.3): optional weakness prefix, then a quoted string.
const TAG = /\s*(W\/)?("[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)/y;

/**
 * Whether an `If-None-Match` field value matches `tag` by the weak comparison of RFC 9110
 * section 13.1.2: `*`, or a comma-separated list with a tag whose opaque part equals ours (with
 * or without `W/`). A malformed list matches nothing, so the full answer is sent.
 */
export function ifNoneMatchMatches(field: string, tag: string): boolean {
  if (field.trim() === '*') return true;
  const wanted = tag.startsWith('W/') ? tag.slice(2) : tag;
  TAG.lastIndex = 0;
  let matched = false;
  while (TAG.lastIndex < field.length) {
    const start = TAG.lastIndex;
    const m = TAG.exec(field);
    if (!m) return false;
    if (m[2] === wanted) matched = true;
    if (TAG.lastIndex === start) return false;
  }
  return matched;
}
