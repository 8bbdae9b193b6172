import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// The architecture as rules on import specifiers: data flows adapter -> store -> pipeline ->
// route -> schemas -> storage -> Kysely, and each boundary is checked here, not just described.
const root = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) continue;
    if (statSync(join(root, path)).isDirectory()) out.push(...files(path));
    else if (/\.(ts|mts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

interface Import {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

function imports(file: string): Import[] {
  const text = readFileSync(join(root, file), 'utf8');
  const found: Import[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const m of text.matchAll(re)) found.push({ file, specifier: m[3] ?? m[4]!, typeOnly: Boolean(m[2]) });
  return found;
}

const violations = (list: Import[], bad: (i: Import) => boolean) =>
  list.filter(bad).map((i) => `${i.file}: ${i.specifier}`);

const src = files('src').flatMap(imports);

test('src/ never imports adapters/, examples/ or test/', () => {
  assert.equal(violations(src, (i) => /(^|\/)(adapters|examples|test)\//.test(i.specifier)), []);
});

test('adapters/ and examples/ use only public entry points, never src/', () => {
  const outside = [...files('adapters'), ...files('examples')].flatMap(imports);
  assert.ok(outside.length > 0);
  assert.equal(violations(outside, (i) => /(^|\/)src\//.test(i.specifier)), []);
});

test('only the two database helpers import drivers', () => {
  const drivers = /^(pg|@electric-sql\/pglite)(\/|$)/;
  assert.equal(violations(src, (i) => drivers.test(i.specifier) && !['src/pg.ts', 'src/pglite.ts'].includes(i.file)), []);
});

test('the core never imports a runtime module (node:*), so it runs on every runtime', () => {
  assert.equal(violations(src, (i) => i.specifier.startsWith('node:') && !i.typeOnly), []);
});

test('only storage/ writes SQL: elsewhere Kysely is imported for types only', () => {
  const allowed = (f: string) => f.startsWith('src/storage/') || f === 'src/pg.ts' || f === 'src/pglite.ts';
  assert.equal(violations(src, (i) => /^kysely(\/|$)/.test(i.specifier) && !i.typeOnly && !allowed(i.file)), []);
  for (const file of files('src').filter((f) => !allowed(f))) {
    const text = readFileSync(join(root, file), 'utf8');
    assert.not.match(text, /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql`/, `${file} writes SQL`);
  }
});

test('only respond.ts builds Responses in the core', () => {
  for (const file of files('src')) {
    if (file === 'src/http/respond.ts') continue;
    const text = readFileSync(join(root, file), 'utf8');
    assert.not.match(text, /new Response\(/, `${relative(root, join(root, file))} builds a Response`);
  }
});

test('the core and the library adapters never import prom-client (only the standalone server does)', () => {
  const library = [...src, ...files('adapters').filter((f) => !f.startsWith('adapters/cli')).flatMap(imports)];
  assert.equal(violations(library, (i) => /^prom-client(\/|$)/.test(i.specifier)), []);
});

test.run();
