// SHA-256 (src/http/sha256.ts): the runtime's hash on Node, @noble/hashes where a runtime has no
// node:crypto; both give node:crypto's digest.
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sha256Hex, sha256Sources } from '../src/http/sha256.js';

const texts = Array.from({ length: 200 }, (_, n) => randomBytes(n).toString('latin1') + (n % 3 === 0 ? '\u00e9\u{1F600}' : ''));

test("sha256Hex is the runtime's hash on Node and matches createHash, across block boundaries and non-ASCII text", () => {
  assert.ok(sha256Sources.usesRuntime, 'Node offers node:crypto through process.getBuiltinModule');
  for (const text of texts) assert.is(sha256Hex(text), createHash('sha256').update(text, 'utf8').digest('hex'), `length ${text.length}`);
});

test('the library hash (runtimes without node:crypto) matches createHash, and the FIPS 180-4 "abc" answer', () => {
  for (const text of texts) assert.is(sha256Sources.libraryHex(text), createHash('sha256').update(text, 'utf8').digest('hex'));
  assert.is(sha256Sources.libraryHex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test.run();
