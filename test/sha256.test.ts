import { createHash, randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sha256, sha256Hex, toHex, usesNativeSha256 } from '../src/http/sha256.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

test('sha256 matches node:crypto for lengths around block boundaries and non-ASCII text', () => {
  for (let n = 0; n < 200; n++) {
    const text = randomBytes(n).toString('latin1') + (n % 3 === 0 ? '\u00e9\u{1F600}' : '');
    assert.is(hex(sha256(text)), createHash('sha256').update(text, 'utf8').digest('hex'), `length ${n}`);
  }
});

test('sha256 known answer (FIPS 180-4 "abc")', () => {
  assert.is(hex(sha256('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test("sha256Hex (the runtime's hash on Node) equals our own, and Node's is the one used here", () => {
  assert.ok(usesNativeSha256, 'Node 20.16+ offers node:crypto through process.getBuiltinModule');
  for (let n = 0; n < 100; n++) {
    const text = randomBytes(n).toString('latin1') + (n % 4 === 0 ? '\u00e9\u{1F600}' : '');
    assert.is(sha256Hex(text), toHex(sha256(text)), `length ${n}`);
  }
});

test('toHex writes every byte value as two lower-case digits', () => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  assert.is(toHex(all), Buffer.from(all).toString('hex'));
});

test.run();
