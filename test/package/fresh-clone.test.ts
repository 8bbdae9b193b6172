/**
 * `npm pack` of a fresh clone (no dist/ in git) ships the built package: prepack builds it (issue 38
 * item 4; a git install packs the same way). The tarball, installed into a new project, imports and
 * runs `npx petstore-router --version`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const big = { maxBuffer: 16 << 20, env: { ...process.env, NPM_CONFIG_UPDATE_NOTIFIER: 'false' } };
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

test('a fresh clone packs with dist/; installed in a new project it imports and runs npx petstore-router --version', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-router-clone-'));
  try {
    const clone = join(dir, 'clone');
    const { stdout: head } = await run('git', ['rev-parse', 'HEAD'], { cwd: root });
    await run('git', ['clone', '--quiet', '--no-checkout', root, clone]);
    await run('git', ['-C', clone, 'checkout', '--quiet', head.trim()]);
    assert.not.ok(existsSync(join(clone, 'dist')), 'a clone has no dist/ (it is built, not committed)');
    // The clone's dependencies are this checkout's (what `npm ci` would install): only the build is under test.
    symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: clone, ...big });
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    const files = packed!.files.map((f) => f.path);
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'dist/cli.js']) assert.ok(files.includes(file), `${file} is in the tarball`);

    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, packed!.filename), '@electric-sql/pglite'], {
      cwd: app,
      ...big,
    });
    const { stdout: printed } = await run('npx', ['--no-install', 'petstore-router', '--version'], { cwd: app, ...big });
    assert.is(printed.trim(), version);
    const { stdout: imported } = await run(
      process.execPath,
      ['--input-type=module', '-e', "const { createPetStore } = await import('petstore-router'); console.log(typeof createPetStore)"],
      { cwd: app },
    );
    assert.is(imported.trim(), 'function');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
