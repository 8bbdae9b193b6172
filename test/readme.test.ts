// Every ```ts block of README runs as a new file (issue 38): it exits 0 printing what its
// `console.log(...) // expected` comment says, or, for a server, prints `listening on URL` and
// answers its health check there. Guides' blocks: test/docs-code.test.ts.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { codeBlocks } from './helpers/markdown.js';
import { blockDir, runBlock } from './helpers/run-block.js';

const root = join(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = codeBlocks(readme).filter((b) => b.lang === 'ts');

test('README has its getting-started blocks: in-process, a server, a test', () => {
  assert.ok(blocks.length >= 3, `${blocks.length} ts blocks`);
});

blocks.forEach((block, i) => {
  test(`README's ts block at line ${block.line} runs as a new file`, async () => {
    const result = await runBlock(block.code, `block-${i}`);
    assert.is(result.code, 0, result.stderr);
    if (result.served !== undefined) return assert.is(result.served, 200, 'the server it started answers its health check');
    const expected = /console\.log\(.*\/\/ (.+)$/m.exec(block.code)?.[1];
    assert.ok(expected, 'a block that is not a server says what it prints');
    assert.is(result.stdout.trim().split('\n')[0], expected.trim());
  });
});

test.after(() => rmSync(blockDir, { recursive: true, force: true }));

test.run();
