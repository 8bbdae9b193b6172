import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { INT64_MAX, INT64_MIN, Int64Text, parseInt64Text } from '../src/schemas/int64.js';

const MALFORMED = [
  '',
  '01',
  '00',
  '-01',
  '-00',
  '+1',
  ' 1',
  '1 ',
  '\t1',
  '0x1',
  '0b1',
  '0o1',
  '1e2',
  '1E2',
  '1.0',
  '1.',
  '.5',
  '1_000',
  '-',
  '--1',
  '١',
  '１',
  'abc',
  'Infinity',
  'NaN',
  '9223372036854775808',
  '-9223372036854775809',
  '99999999999999999999',
  '123456789012345678901',
];
const VALID: [string, bigint][] = [
  ['0', 0n],
  ['-0', 0n],
  ['1', 1n],
  ['-1', -1n],
  ['42', 42n],
  ['9007199254740993', 9007199254740993n],
  ['9223372036854775807', INT64_MAX],
  ['-9223372036854775808', INT64_MIN],
];

test('parseInt64Text: canonical decimal int64 only', () => {
  for (const text of MALFORMED) assert.is(parseInt64Text(text), undefined, JSON.stringify(text));
  for (const [text, value] of VALID) assert.is(parseInt64Text(text), value, text);
});

/** The fast parse and the valibot rule (which words the 400) must agree on every text. */
function agree(text: string): void {
  const fast = parseInt64Text(text);
  const rule = v.safeParse(Int64Text, text);
  assert.is(rule.success ? rule.output : undefined, fast, JSON.stringify(text));
}

test('Int64Text (valibot) and parseInt64Text agree: listed, edge and random texts', () => {
  for (const text of [...MALFORMED, ...VALID.map(([t]) => t)]) agree(text);
  for (let n = -5n; n <= 5n; n++) {
    agree(String(INT64_MAX + n));
    agree(String(INT64_MIN + n));
  }
  const alphabet = '0123456789-+ .eEx_';
  let seed = 17;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < 5000; i++) {
    let text = '';
    const length = next() % 22;
    for (let j = 0; j < length; j++) text += alphabet[next() % (j === 0 ? alphabet.length : 10 + (next() % 4 === 0 ? 9 : 0))];
    agree(text);
  }
});

test.run();
