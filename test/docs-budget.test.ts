// The docs a newcomer reads in ten minutes (issue 38): README a front door of at most 1,200 words,
// README plus docs/ at most 22,000 words, no line of docs/ over 400 characters, no dated figure in
// README (figures and their dates live in docs/performance.md). Words are counted as `wc -w` does.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const docs = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);

test('README is at most 1,200 words', () => {
  assert.ok(words(read('README.md')) <= 1_200, `README has ${words(read('README.md'))} words`);
});

test('README and docs/ together are at most 22,000 words', () => {
  const counts = ['README.md', ...docs].map((file) => [file, words(read(file))] as const);
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  assert.ok(total <= 22_000, `${total} words: ${counts.map(([f, n]) => `${f} ${n}`).join(', ')}`);
});

test('no line of docs/ is over 400 characters', () => {
  const long = docs.flatMap((file) =>
    read(file)
      .split('\n')
      .flatMap((line, i) => (line.length > 400 ? [`${file}:${i + 1} (${line.length})`] : [])),
  );
  assert.equal(long, []);
});

test('README names no dated figure (a date such as 2026-11-24 or a run time)', () => {
  assert.not.match(read('README.md'), /\b20\d\d-\d\d-\d\d\b|\brun of\b/);
});

test.run();
