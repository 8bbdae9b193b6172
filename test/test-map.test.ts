// test/README.md maps behaviours to test files: every test file of `npm test` is named there, and
// every file it names exists, so a newcomer's map never leads nowhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const dir = import.meta.dirname;
const map = readFileSync(join(dir, 'README.md'), 'utf8');
const named = new Set([...map.matchAll(/`([\w.-]+\.test\.ts)`/g)].map((m) => m[1]!));

test('test/README.md names every test file of test/', () => {
  const files = readdirSync(dir).filter((name) => name.endsWith('.test.ts'));
  assert.equal(
    files.filter((file) => !named.has(file)),
    [],
    'test files test/README.md does not name',
  );
});

test('every test file test/README.md names exists', () => {
  assert.equal(
    [...named].filter((file) => !existsSync(join(dir, file))),
    [],
  );
});

test.run();
