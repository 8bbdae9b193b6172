// Files of src/ and adapters/ stay under 300 lines (one job each), or CONTRIBUTING.md's "Files over
// 300 lines" names the file and says why.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = join(import.meta.dirname, '..');
const LIMIT = 300;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

test(`every file of src/ and adapters/ over ${LIMIT} lines is named in CONTRIBUTING.md with a reason`, () => {
  const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
  const section = contributing.slice(contributing.indexOf('## Files over 300 lines'));
  assert.ok(section.startsWith('## Files over 300 lines'), 'CONTRIBUTING.md has the section');
  const named = new Set([...section.matchAll(/^- `([^`]+)`: \S/gm)].map((m) => m[1]));
  const long = [...sources('src'), ...sources('adapters')].filter(
    (file) => readFileSync(join(root, file), 'utf8').split('\n').length - 1 > LIMIT,
  );
  assert.equal(
    long.filter((file) => !named.has(file)),
    [],
    `files over ${LIMIT} lines that CONTRIBUTING.md does not name`,
  );
});

test.run();
