// Every code block of the guides runs in CI (issue 38): a block is an excerpt of a file CI runs
// (examples/, run by scripts/run-examples.sh and the tests; test/helpers/), or it runs here as a
// new file and prints what its `// expected` comment says. docs/browser.md's page blocks run in
// chromium (test/browser-docs.test.ts) and its Vite config in test/browser-vite.test.ts, not here.
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { databaseUrl } from './helpers/postgres-test.js';
import { browserBlockRunner, codeBlocks } from './helpers/markdown.js';
import { blockDir, runBlock } from './helpers/run-block.js';

const root = join(import.meta.dirname, '..');
const GUIDES = ['mounting', 'testing', 'operations', 'reliability', 'cloudflare', 'deno-bun', 'browser'];
const CODE = ['ts', 'js', 'jsonc', 'tsx'];
const normal = (text: string) => text.replace(/\s+/g, ' ').trim();

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : files(path);
    return /\.(ts|mts|js|jsonc)$/.test(name) ? [path] : [];
  });
}
const ranByCi = [...files(join(root, 'examples')), ...files(join(root, 'test/helpers'))]
  .map((f) => normal(readFileSync(f, 'utf8')))
  .join('\n');

for (const guide of GUIDES) {
  const blocks = codeBlocks(readFileSync(join(root, 'docs', `${guide}.md`), 'utf8')).filter(
    (b) => CODE.includes(b.lang) && (guide !== 'browser' || browserBlockRunner(b.code) === undefined),
  );
  blocks.forEach((block, i) => {
    test(`docs/${guide}.md block at line ${block.line}: an excerpt of code CI runs, or runs here`, async () => {
      if (ranByCi.includes(normal(block.code))) return;
      // A PostgreSQL block runs where DATABASE_URL is set (always in CI); `npm test` alone skips it.
      if (block.code.includes('DATABASE_URL') && !databaseUrl()) {
        console.log(`docs-code: docs/${guide}.md line ${block.line}: DATABASE_URL unset, PostgreSQL run skipped`);
        return;
      }
      const expected = /console\.log\(.*\/\/ (.+)$/m.exec(block.code)?.[1];
      assert.ok(expected, 'not found in examples/ or test/helpers/, and says nothing it prints: make it one or the other');
      const result = await runBlock(block.code, `${guide}-${i}`);
      assert.is(result.code, 0, result.stderr);
      assert.is(result.stdout.trim().split('\n')[0], expected.trim());
    });
  });
}

test.after(() => rmSync(blockDir, { recursive: true, force: true }));

test.run();
