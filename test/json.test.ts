import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { JsonSyntaxError, MAX_JSON_DEPTH, parseJson } from '../src/http/json-parse.js';
import { writeOrder, writePet } from '../src/http/json-write.js';

test('integer literals become exact bigints over the whole int64 range and beyond', () => {
  for (const n of ['0', '-1', '9007199254740993', '9223372036854775807', '-9223372036854775808', '123456789012345678901234567890']) {
    assert.is(parseJson(n), BigInt(n));
  }
  assert.equal(parseJson('[9223372036854775807]'), [9223372036854775807n]);
});

test('numbers with a fraction or exponent stay numbers, so int64 validation can refuse them', () => {
  assert.is(parseJson('1.0'), 1);
  assert.is(parseJson('1e3'), 1000);
  assert.is(parseJson('-2.5E-3'), -0.0025);
  assert.is(parseJson('1e309'), Infinity);
});

test('strings, escapes, literals and nesting parse like JSON.parse', () => {
  const text = '{"a":"x\\"y\\\\z\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\udc36","b":[true,false,null,{}],"c":{"d":[]}}';
  const expected = JSON.parse(text);
  assert.equal(JSON.stringify(parseJson(text)), JSON.stringify(expected));
  assert.is(parseJson('  "\\u0000"  '), '\u0000');
});

test('__proto__ and constructor are plain keys, never the prototype', () => {
  const value = parseJson('{"__proto__":{"polluted":1},"constructor":{"prototype":1}}') as Record<string, unknown>;
  assert.is(Object.getPrototypeOf(value), null);
  assert.equal(Object.keys(value), ['__proto__', 'constructor']);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

test('malformed input throws JsonSyntaxError with a safe message', () => {
  for (const text of [
    '',
    '{',
    '[1,]',
    '{"a" 1}',
    '01',
    '-',
    '1.',
    '.5',
    '+1',
    'tru',
    'nul',
    '"abc',
    '"\\x"',
    '"\\u12"',
    '"a\nb"',
    '{"a":1}}',
    "{'a':1}",
    'NaN',
    '[1 2]',
  ]) {
    assert.throws(
      () => parseJson(text),
      (e: unknown) => e instanceof JsonSyntaxError,
      text,
    );
  }
});

test(`nesting deeper than ${MAX_JSON_DEPTH} levels is refused, 10,000 levels included, without a stack overflow`, () => {
  assert.not.throws(() => parseJson('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)));
  assert.throws(
    () => parseJson('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1)),
    (e: unknown) => e instanceof JsonSyntaxError,
  );
  assert.throws(
    () => parseJson('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)),
    (e: unknown) => e instanceof JsonSyntaxError,
  );
});

test('writers are exact for int64 and escape names', () => {
  const pet = { id: 9223372036854775807n, name: 'a"b\\c\u2028', categoryId: -9223372036854775808n, status: 'sold' as const };
  const text = writePet(pet);
  assert.is(text, '{"id":9223372036854775807,"name":"a\\"b\\\\c\u2028","categoryId":-9223372036854775808,"status":"sold"}');
  assert.equal(parseJson(text), Object.assign(Object.create(null), pet));
  const order = { id: 1n, petId: 2n, quantity: 3, status: 'placed' as const, complete: false };
  assert.is(writeOrder(order), '{"id":1,"petId":2,"quantity":3,"status":"placed","complete":false}');
  assert.is(
    writeOrder({ ...order, shipDate: new Date(0) }),
    '{"id":1,"petId":2,"quantity":3,"shipDate":"1970-01-01T00:00:00.000Z","status":"placed","complete":false}',
  );
});

test.run();
