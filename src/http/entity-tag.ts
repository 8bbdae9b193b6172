/**
 * Entity tags of GET answers: a 64-bit non-cryptographic hash (two 32-bit multiply-xor lanes,
 * cyrb53's mixing kept to its full width) of the `Link` header and the body text, plus the body's
 * length. It only has to change when the answer changes, and a client only ever sends back tags it
 * was given, so a fast hash is enough; a collision would need two different answers of the same
 * length with equal 64-bit hashes for the same URL and key.
 */
export function entityTag(link: string | null, body: string): string {
  let h1 = 0xdeadbeef ^ body.length;
  let h2 = 0x41c6ce57 ^ body.length;
  const text = link === null ? body : `${link}\n${body}`;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `"${text.length.toString(36)}-${hex8(h2)}${hex8(h1)}"`;
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
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
