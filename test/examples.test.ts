import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// Fast checks only; every example actually runs under its runtime in scripts/run-examples.sh.
const root = new URL('../examples/', import.meta.url).pathname;
// typed-client has its own rules (generated files, its own test).
const OWN = ['typed-client'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || OWN.includes(name) ? [] : files(path);
    return /\.(ts|mts)$/.test(name) ? [path] : [];
  });
}

const test = suite('examples');

test('import only public names of the package, Node built-ins, the host frameworks, or their own files', () => {
  const allowed =
    /^(petstore-router(\/(pglite|pg|testing|node|deno|bun|express|fastify|docs))?|node:[a-z_/]+|express|fastify|hono(\/.*)?|vitest|uvu(\/assert)?|\.\/.*|\.\.\/self-test\.ts)$/;
  for (const file of files(root)) {
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      assert.ok(allowed.test(specifier!), `${relative(root, file)} imports ${specifier}`);
    }
  }
});

test('every example documents how to run it and honours EXAMPLE_SELF_TEST or self-tests', () => {
  const mains = files(root).filter((f) => f.endsWith('main.ts'));
  assert.ok(mains.length >= 8, `found ${mains.length} examples`);
  for (const file of mains) {
    const source = readFileSync(file, 'utf8');
    assert.match(source, /Run|run/, `${relative(root, file)} says how to run it`);
    assert.match(source, /EXAMPLE_SELF_TEST|self-test/, `${relative(root, file)} self-tests`);
  }
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  for (const file of mains) assert.ok(readme.includes(relative(root, file).split('/')[0]!), `README lists ${file}`);
});

test.run();
