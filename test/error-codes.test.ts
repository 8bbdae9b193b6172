// docs/errors.md is the one reference of the Error codes: its table lists exactly the codes of
// ErrorCode, each with the status the store answers it with (error-kinds.ts, which the OpenAPI
// document is built from).
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { errorKinds } from '../src/error-kinds.js';
import { ErrorCode } from '../src/errors.js';

const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
const rows = new Map([...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));

test('docs/errors.md lists every ErrorCode and nothing else', () => {
  assert.equal([...rows.keys()].sort(), Object.values(ErrorCode).sort());
});

test('each code has the status the store answers it with', () => {
  for (const kind of Object.values(errorKinds)) {
    for (const code of kind.codes) assert.is(rows.get(code), kind.status, code);
  }
});

test.run();
