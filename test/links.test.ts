/**
 * Every relative link in README, CONTRIBUTING, CHANGELOG, docs/ and examples/ resolves to a file
 * of the repository (and to a heading, when it names one), and what README links to ships in the
 * package (package.json `files`).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { headingAnchors, relativeLinks } from './helpers/markdown.js';

const root = resolve(import.meta.dirname, '..');

function markdownUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md') && !file.split(sep).includes('node_modules'))
    .map((file) => join(dir, file));
}

const documents = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...markdownUnder('docs'), ...markdownUnder('examples')];

function problems(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return relativeLinks(text).flatMap((link) => {
    const where = `${file}:${link.line} ${link.target}`;
    const target = link.path === '' ? join(root, file) : resolve(root, dirname(file), link.path);
    const inside = relative(root, target);
    if (inside.startsWith('..')) return [`${where}: outside the repository`];
    if (!existsSync(target)) return [`${where}: no such file`];
    if (link.anchor !== undefined && target.endsWith('.md') && !headingAnchors(readFileSync(target, 'utf8')).has(link.anchor)) {
      return [`${where}: no heading with this anchor`];
    }
    return [];
  });
}

test('every relative link in README, CONTRIBUTING, CHANGELOG, docs/ and examples/ resolves', () => {
  assert.ok(documents.length > 10, documents.join(', '));
  assert.equal(documents.flatMap(problems), []);
});

test('what README links to ships in the package (package.json files)', () => {
  const { files } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
  const shipped = (path: string) => files.some((entry) => path === entry || path.startsWith(`${entry.replace(/\/$/, '')}/`));
  const notShipped = relativeLinks(readFileSync(join(root, 'README.md'), 'utf8'))
    .filter((link) => link.path !== '' && !shipped(link.path))
    .map((link) => link.target);
  assert.equal(notShipped, []);
});

test('the link checker itself: a missing file, an outside path and a wrong anchor are found', () => {
  const links = relativeLinks('[a](docs/nope.md) [b](../shared/x.md) [c](README.md#no-such-heading) `[d](ignored.md)` [e](https://x.y/z)');
  assert.equal(
    links.map((l) => l.target),
    ['docs/nope.md', '../shared/x.md', 'README.md#no-such-heading'],
  );
  assert.ok(headingAnchors('## Use it in-process\n## A `code` (heading)!').has('use-it-in-process'));
  assert.ok(headingAnchors('## A `code` (heading)!').has('a-code-heading'));
  assert.ok(statSync(join(root, 'README.md')).isFile());
});

test.run();
