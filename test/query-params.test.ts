import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { LimitParam, parseLimit } from '../src/schemas/query.js';

test('parseLimit (fast) and LimitParam (valibot) agree on every text', () => {
  const texts = [
    '',
    '0',
    '1',
    '01',
    '20',
    '99',
    '100',
    '101',
    '1000',
    '-1',
    '+1',
    ' 1',
    '1 ',
    '1.0',
    '1e1',
    '0x10',
    'abc',
    '١',
    '99999999999999999999',
  ];
  for (let n = 0; n <= 1200; n++) texts.push(String(n), `0${n}`);
  for (const text of texts) {
    const rule = v.safeParse(LimitParam, text);
    assert.is(parseLimit(text), rule.success ? rule.output : undefined, JSON.stringify(text));
  }
});

test.run();
