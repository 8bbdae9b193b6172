import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const HELPER = new URL('helpers/temp-dir.ts', import.meta.url).href;

// A test's scratch directory is gone once its process exits, even when the test failed: a suite
// run must not leave its browser profiles and data directories to fill the disk.
test('a temp dir is removed at exit, after a failure too', () => {
  const script = `
    import { writeFileSync } from 'node:fs';
    import { tempDir } from ${JSON.stringify(HELPER)};
    const dir = tempDir('petstore-temp-dir-test-');
    writeFileSync(dir + '/file', 'x');
    console.log(dir);
    process.exitCode = 1;`;
  let dir = '';
  try {
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.unreachable('the child should exit 1');
  } catch (error) {
    dir = String((error as { stdout: string }).stdout).trim();
  }
  assert.match(dir, /petstore-temp-dir-test-/);
  assert.not.ok(existsSync(dir), `${dir} is left behind`);
});

test.run();
