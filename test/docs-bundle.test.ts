import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// The renderer stays out of the core: nothing the built `petstore-router` entry loads (its chunks,
// followed transitively) mentions Swagger UI or the docs entry, so an embedder without the page
// pays nothing for it. Runs on the build CI makes before `npm test` (.ci/run).
const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

function graph(entry: string): string[] {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(join(DIST, file), 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"]\.\/([^'"]+)['"]/g)) todo.push(m[1]!);
  }
  return [...seen];
}

if (existsSync(join(DIST, 'index.js')) && existsSync(join(DIST, 'docs.js'))) {
  test('the built core entry never loads the renderer; the docs entry does', () => {
    const core = graph('index.js');
    assert.ok(core.length > 1, 'the core has chunks');
    for (const file of core) assert.not.match(readFileSync(join(DIST, file), 'utf8'), /swagger|docs\.js/i, file);
    assert.ok(graph('docs.js').some((file) => /swagger-ui-dist/.test(readFileSync(join(DIST, file), 'utf8'))));
  });
} else {
  if (process.env.CI) throw new Error('dist/ is missing: .ci/run builds before npm test');
  console.log('docs-bundle: dist/ not built, skipped');
}

test.run();
