// On a Node.js older than package.json's engines, the CLI says which Node it needs and exits 1
// before loading anything else (issue 38 item 11: a Node 20 user was told nothing).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OLDEST_NODE } from '../adapters/cli/node-version.js';

const root = join(import.meta.dirname, '..');
const run = promisify(execFile);
/** Runs the CLI with `process.versions.node` reading `version` (set before the CLI's first line). */
const cliOn = (version: string, args: string[]) =>
  run(
    process.execPath,
    [
      `--import=data:text/javascript,Object.defineProperty(process.versions,'node',{value:'${version}'})`,
      '--import',
      'tsx',
      'adapters/cli.ts',
      ...args,
    ],
    { cwd: root, timeout: 60_000 },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

test('on Node 20 every command (even --version) exits 1 naming the Node it needs', async () => {
  for (const args of [['--version'], ['serve', '--port', '0']]) {
    const { code, stdout, stderr } = await cliOn('20.20.2', args);
    assert.is(code, 1, args.join(' '));
    assert.is(stdout, '');
    assert.is(
      stderr,
      'petstore-router: needs Node.js 22 or later; this is Node.js 20.20.2. Install Node.js 22 or 24 (https://nodejs.org) and run it again.\n',
    );
  }
});

test('on Node 22 it runs; the oldest Node is the one package.json engines names', async () => {
  const { code, stdout } = await cliOn('22.0.0', ['--version']);
  assert.is(code, 0);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; engines: { node: string } };
  assert.is(stdout, `${pkg.version}\n`);
  assert.is(pkg.engines.node, `>=${OLDEST_NODE}`);
});

test("the command keeps Node's compile cache, so a second start does not compile its modules again", async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'petstore-compile-cache-'));
  try {
    await run(process.execPath, ['--import', 'tsx', 'adapters/cli.ts', '--version'], {
      cwd: root,
      env: { ...process.env, TMPDIR: tmp, NODE_COMPILE_CACHE: undefined },
    });
    const dir = join(tmp, 'node-compile-cache');
    assert.ok(existsSync(dir) && readdirSync(dir).length > 0, 'node-compile-cache written under the temporary directory');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test.run();
