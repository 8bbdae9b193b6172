// parseNewPet, the fast form of NewPetSchema (POST /pets' body), against valibot over a grid of
// bodies as the JSON parser gives them: the same output wherever valibot accepts, undefined
// wherever it refuses (then valibot words the 400).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { parseJson } from '../src/http/json-parse.js';
import { NewPetSchema, parseNewPet } from '../src/schemas/pet.js';

const names: unknown[] = [
  'Rex',
  'a',
  '',
  ' ',
  ' \t\n',
  ' x ',
  'é',
  '🐈',
  'x'.repeat(255),
  'x'.repeat(256),
  '🐈'.repeat(255),
  '🐈'.repeat(256),
  'a\u0000b',
  '\uD800',
  'a\uDC00',
  '\uDBFF\uDFFF',
  '\u00A0',
  '\u2003',
  'ok\u2028',
  7,
  7n,
  null,
  true,
  ['Rex'],
  {},
];
const categoryIds: unknown[] = [0n, 7n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 63n, -(2n ** 63n) - 1n, 7, 7.5, '7', null, true];
const statuses: unknown[] = ['available', 'pending', 'sold', 'Sold', 'gone', '', 1, null];
const ABSENT = Symbol('absent');

function body(fields: Record<string, unknown>): Record<string, unknown> {
  const raw: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(fields)) if (value !== ABSENT) raw[key] = value;
  return raw;
}

function agree(raw: Record<string, unknown>, label: string): boolean {
  const slow = v.safeParse(NewPetSchema, raw, { abortEarly: false });
  const fast = parseNewPet(raw);
  if (slow.success) assert.equal(fast, slow.output, label);
  else assert.is(fast, undefined, label);
  return slow.success;
}

test('parseNewPet agrees with NewPetSchema on every combination of fields', () => {
  let accepted = 0;
  let cases = 0;
  for (const name of [...names, ABSENT]) {
    for (const categoryId of [...categoryIds, ABSENT]) {
      for (const status of [...statuses, ABSENT]) {
        for (const extra of [{}, { id: 1n }, { id: null }, { tags: ['x'] }, { __proto__: 'p', constructor: 1 }]) {
          const raw = body({ name, categoryId, status });
          for (const [key, value] of Object.entries(extra)) raw[key] = value;
          if (agree(raw, `${String(name)} ${String(categoryId)} ${String(status)} ${Object.keys(extra)}`)) accepted++;
          cases++;
        }
      }
    }
  }
  assert.ok(accepted > 100 && accepted < cases, `${accepted} of ${cases} accepted: both sides are exercised`);
});

test('parseNewPet agrees on bodies as the JSON parser reads them', () => {
  for (const text of [
    '{"name":"Rex","categoryId":7,"status":"pending"}',
    '{"name":"Rex","categoryId":7}',
    '{"status":"sold","categoryId":9223372036854775807,"name":"\\ud83d\\udc08"}',
    '{"name":"Rex","categoryId":7.0}',
    '{"name":"Rex","categoryId":1e3}',
    '{"name":"Rex","categoryId":"7"}',
    '{"name":"Rex","categoryId":7,"id":1}',
    '{"name":"Rex","categoryId":7,"__proto__":{"id":1}}',
    '{"name":"Rex","categoryId":7,"status":"pending","status":"sold"}',
    '{"name":"\\u0000","categoryId":7}',
  ]) {
    agree(parseJson(text) as Record<string, unknown>, text);
  }
  assert.equal(parseNewPet(parseJson('{"name":"Rex","categoryId":7}') as Record<string, unknown>), {
    name: 'Rex',
    categoryId: 7n,
    status: 'available',
  });
});

test.run();
