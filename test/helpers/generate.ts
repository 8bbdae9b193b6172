/** Reproducible pseudo-random inputs for differential tests (mulberry32: same seed, same cases). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Request hosts, plain and not: ports, IPv4 forms, IDNA, case, user info, IPv6, junk. */
export const HOSTS = [
  'localhost',
  'localhost:8080',
  'localhost:80',
  'localhost:443',
  'localhost:080',
  'localhost:0',
  'localhost:65535',
  'localhost:65536',
  'example.com',
  'Example.COM',
  'a.b-',
  '-a',
  'a..b',
  'a.',
  'api.example.com:3000',
  '127.0.0.1',
  '127.0.0.1:18080',
  '127.1',
  '0x7f.0.0.1',
  '1.2.3.256',
  '10.0.0.01',
  'a.1',
  '1a.b',
  'xn--nxasmq6b.com',
  'xn--a',
  'münchen.de',
  'user:pw@h',
  '[::1]:3000',
  'a b',
  'a_b',
  '',
];

/** Path and query pieces that `new URL()` keeps, encodes, decodes or removes. */
const PIECES = [
  'a',
  'pets',
  '1',
  '/',
  '/',
  '.',
  '..',
  '%2e',
  '%2E',
  '%41',
  '%zz',
  '%',
  '?',
  '&',
  '=',
  '#',
  ' ',
  "'",
  '"',
  'é',
  '~',
  '+',
  ';',
  '|',
  '\\',
  '`',
  '{',
  '@',
  ':',
  '!',
  '$',
  '(',
  '*',
  ',',
  '-',
  '_',
  '^',
  '[',
  '\t',
];

/** Pieces that are all, or nearly all, characters `new URL()` keeps: the edge of the plain set. */
const PLAIN_PIECES = [
  'a',
  'Z',
  '0',
  '-',
  '.',
  '_',
  '~',
  '!',
  '$',
  '&',
  '(',
  ')',
  '*',
  '+',
  ',',
  ';',
  '=',
  ':',
  '@',
  '/',
  '%',
  '%41',
  '%2e',
  '?',
  '..',
  "'",
];

/** A request target: `/` and up to 9 pieces, from all pieces or (`plain`) from the plain ones. */
export function target(next: () => number, plain = false): string {
  const pieces = plain ? PLAIN_PIECES : PIECES;
  let t = '/';
  const n = Math.floor(next() * 10);
  for (let i = 0; i < n; i++) t += pieces[Math.floor(next() * pieces.length)];
  return t;
}
