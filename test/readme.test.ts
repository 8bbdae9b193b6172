import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = join(import.meta.dirname, '..');

/** The first ```ts block under a README heading. */
function codeBlockUnder(heading: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `README has a "## ${heading}" section`);
  const m = /```ts\n([\s\S]*?)```/.exec(readme.slice(start));
  assert.ok(m, `a ts block under "${heading}"`);
  return m[1]!;
}

test('the README in-process example works when pasted into a new file', async () => {
  const code = codeBlockUnder('Use it in-process');
  // Inside the project (not node_modules) so tsx resolves 'petstore-router' through tsconfig paths.
  const dir = join(root, '.cache', 'readme');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'example.mts');
  writeFileSync(file, code);
  const expected = /\/\/ (\d{3} .+)$/m.exec(code)![1]!;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], { cwd: root, timeout: 60_000 });
  assert.is(stdout.trim(), expected);
});

test.run();
