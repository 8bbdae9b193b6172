// docs/node.md shows `petstore-router --help` as the command prints it (issue 38 item 7: the synopsis
// had drifted, missing openapi, snapshot and six flags), and names every flag --help lists.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { USAGE } from '../adapters/cli/usage.js';
import { codeBlocks } from './helpers/markdown.js';

const root = join(import.meta.dirname, '..');
const doc = readFileSync(join(root, 'docs/node.md'), 'utf8');

test('docs/node.md has a block equal to --help', () => {
  const shown = codeBlocks(doc).find((b) => b.code.startsWith('Usage:'));
  assert.ok(shown, 'a ``` block starting "Usage:"');
  assert.fixture(shown.code.trimEnd(), USAGE);
});

test('every flag and command of --help is in docs/node.md', () => {
  const flags = new Set(USAGE.match(/--[a-z][a-z-]+/g));
  for (const command of ['serve', 'migrate', 'openapi', 'snapshot']) assert.ok(USAGE.includes(`petstore-router ${command}`));
  assert.ok(flags.size >= 20, `${flags.size} flags`);
  for (const flag of flags) assert.ok(doc.includes(flag), `docs/node.md names ${flag}`);
});

test.run();
