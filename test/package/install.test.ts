/**
 * The package as a user gets it: `npm pack`, then `npm install <tarball> @electric-sql/pglite` in a
 * fresh project, on the Node the test runs on (`npm run test:package` runs it on Node 22, the
 * oldest `engines` allows). No warning, no install script, README's first snippet runs, the CLI
 * serves, the optional peers are optional, and the size README states is the size measured.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readmeFirstSnippet, relativeLinks } from '../helpers/markdown.js';

const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'] as const;

interface Context {
  dir: string;
  installLog: string;
  tarball: string;
}

const test = suite<Context>('packed package');

test.before(async (context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'petstore-router-install-'));
  // npm pack builds dist/ first (prepack); SKIP_BUILD=1 packs the dist/ already there.
  const pack = ['pack', '--json', '--pack-destination', context.dir, ...(process.env.SKIP_BUILD === '1' ? ['--ignore-scripts'] : [])];
  const { stdout } = await run('npm', pack, { cwd: root, maxBuffer: 16 << 20 });
  context.tarball = join(context.dir, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  const project = join(context.dir, 'app');
  await run('mkdir', [project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
  context.dir = project;
  // What README tells a user to run; npm's own cache keeps repeated runs quick.
  context.installLog = await npmInstall(project, [context.tarball, '@electric-sql/pglite']);
});

test.after((context) => {
  if (context.dir) rmSync(join(context.dir, '..'), { recursive: true, force: true });
});

test('npm install <tarball> @electric-sql/pglite prints no warning (no EBADENGINE, no install script)', ({ installLog }) => {
  assert.not.match(installLog, /EBADENGINE/, installLog);
  assert.not.match(installLog, /install-scripts/, installLog);
  assert.not.match(installLog, /\bwarn\b/i, installLog);
});

test('no installed package has an install script', ({ dir }) => {
  const withScripts = installedPackages(join(dir, 'node_modules')).filter(({ json, path }) => {
    const scripts = json.scripts ?? {};
    return INSTALL_SCRIPTS.some((name) => scripts[name] !== undefined) || existsSync(join(path, 'binding.gyp'));
  });
  assert.equal(
    withScripts.map((p) => p.json.name),
    [],
  );
});

test('the optional peers (swagger-ui-dist, prom-client) are not installed', ({ dir }) => {
  const names = installedPackages(join(dir, 'node_modules')).map((p) => p.json.name);
  assert.not.ok(names.includes('swagger-ui-dist'), 'swagger-ui-dist installed');
  assert.not.ok(names.includes('prom-client'), 'prom-client installed');
  assert.not.ok(names.includes('@scarf/scarf'), '@scarf/scarf installed');
});

test('every Node version the package declares is one its dependencies accept', ({ dir }) => {
  const ours = pkg(join(dir, 'node_modules', 'petstore-router')).engines?.node ?? 'none';
  assert.is(ours, '>=22');
  const refusing = installedPackages(join(dir, 'node_modules'))
    .filter(({ json }) => json.engines?.node !== undefined && !semver.subset(ours, json.engines.node))
    .map(({ json }) => `${json.name}: ${json.engines!.node!}`);
  assert.equal(refusing, []);
});

test("README's first snippet runs in the fresh project", async ({ dir }) => {
  const code = readmeFirstSnippet(readFileSync(join(root, 'README.md'), 'utf8'));
  const file = join(dir, 'first.mjs');
  writeFileSync(file, code);
  const expected = /\/\/ (\d{3} .+)$/m.exec(code)![1]!;
  const { stdout } = await run(process.execPath, [file], { cwd: dir, timeout: 60_000 });
  assert.is(stdout.trim(), expected);
});

test('the package carries docs/, every file README links to, and repository, homepage and bugs', ({ dir }) => {
  const installed = join(dir, 'node_modules', 'petstore-router');
  const json = pkg(installed);
  assert.match(JSON.stringify(json.repository), /github\.com\/petstore-router\/petstore-router/);
  assert.type(json.homepage, 'string');
  assert.type(json.bugs, 'object');
  const readme = readFileSync(join(installed, 'README.md'), 'utf8');
  const missing = relativeLinks(readme)
    .map((link) => link.path)
    .filter((path) => !existsSync(join(installed, path)));
  assert.equal(missing, []);
  assert.ok(existsSync(join(installed, 'docs', 'mounting.md')));
});

test('petstore-router/docs without swagger-ui-dist: apiReference() names the package to install', async ({ dir }) => {
  const script = `import { apiReference } from 'petstore-router/docs';
try { apiReference(); console.log('no error'); } catch (e) { console.log(e.message); }`;
  writeFileSync(join(dir, 'docs.mjs'), script);
  const { stdout } = await run(process.execPath, ['docs.mjs'], { cwd: dir, timeout: 30_000 });
  assert.match(stdout, /swagger-ui-dist.*npm install swagger-ui-dist/);
});

test('npx petstore-router serve works without the optional peers and says how to get the docs page', async ({ dir }) => {
  const server = await startCli(dir, ['serve', '--port', '0', '--data-dir', join(dir, 'data-1')]);
  try {
    assert.is((await fetch(`${server.url}/health`)).status, 200);
    const pets = await fetch(`${server.url}/pets`, { headers: { authorization: 'Bearer install-key' } });
    assert.is(pets.status, 200);
    assert.match(server.stderr(), /npm install swagger-ui-dist/);
  } finally {
    await server.stop();
  }
  const metrics = await run(join(dir, 'node_modules', '.bin', 'petstore-router'), ['serve', '--port', '0', '--metrics-port', '0'], {
    cwd: dir,
    env: { ...process.env, PETSTORE_API_KEYS: 'install-key' },
  }).catch((error: { code: number; stderr: string }) => error);
  assert.ok('code' in metrics, 'serve --metrics-port without prom-client must fail');
  assert.is(metrics.code, 2);
  assert.match(metrics.stderr, /npm install prom-client/);
});

test('npx petstore-router snapshot FILE writes the snapshot file of petstore-router/browser for the installed PGlite', async ({ dir }) => {
  const file = join(dir, 'petstore.snapshot');
  const { stderr } = await run(join(dir, 'node_modules', '.bin', 'petstore-router'), ['snapshot', file], { cwd: dir, timeout: 120_000 });
  assert.match(stderr, /wrote .*petstore\.snapshot/);
  const bytes = readFileSync(file);
  const [format, , version, pglite] = bytes.subarray(0, bytes.indexOf(0x0a)).toString('latin1').split(' ');
  const installed = (name: string) =>
    (JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  assert.is(format, 'petstore-router-snapshot-file/1');
  assert.is(version, installed('petstore-router'));
  assert.is(pglite, installed('@electric-sql/pglite'));
});

test('the installed size README states is the size measured', ({ dir }) => {
  // The pre-migrated PGlite snapshot the first use wrote to node_modules/.cache (README says so
  // apart) is not part of the install.
  const cache = join(dir, 'node_modules', '.cache');
  const measured = kib(join(dir, 'node_modules')) - (existsSync(cache) ? kib(cache) : 0);
  const ours = measured - kib(join(dir, 'node_modules', '@electric-sql'));
  console.log(`installed: ${(measured / 1024).toFixed(1)} MB with PGlite, ${(ours / 1024).toFixed(1)} MB without it`);
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const stated = /installs?\s+about\s+(\d+(?:\.\d+)?)\s+MB\s+\(about\s+(\d+(?:\.\d+)?)\s+MB\s+of\s+it\s+PGlite\)/.exec(readme);
  assert.ok(stated, 'README states "installs about N MB (about M MB of it PGlite)"');
  const total = Number(stated[1]) * 1024;
  const pglite = Number(stated[2]) * 1024;
  // Within 15%: sizes move a little with every dependency release.
  assert.ok(Math.abs(measured - total) / total < 0.15, `README says ${stated[1]} MB, measured ${(measured / 1024).toFixed(1)} MB`);
  assert.ok(Math.abs(measured - ours - pglite) / pglite < 0.15, `README says ${stated[2]} MB of PGlite`);
});

// Last: it installs the optional peers into the fresh project.
test('with swagger-ui-dist and prom-client installed as README says, the docs page and metrics are served', async ({ dir }) => {
  await npmInstall(dir, ['swagger-ui-dist', 'prom-client']);
  const server = await startCli(dir, ['serve', '--port', '0', '--data-dir', join(dir, 'data-2'), '--metrics-port', '0']);
  try {
    const page = await fetch(`${server.url}/docs`);
    assert.is(page.status, 200);
    const html = await page.text();
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(scripts.length > 0, html);
    for (const src of scripts) assert.is((await fetch(new URL(src, page.url))).status, 200, src);
    const metricsUrl = /metrics on (\S+)/.exec(server.stderr())?.[1];
    assert.ok(metricsUrl, server.stderr());
    assert.is((await fetch(metricsUrl)).status, 200);
  } finally {
    await server.stop();
  }
});

test.run();

async function npmInstall(dir: string, packages: string[]): Promise<string> {
  const { stdout, stderr } = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packages], {
    cwd: dir,
    maxBuffer: 16 << 20,
    env: { ...process.env, NPM_CONFIG_UPDATE_NOTIFIER: 'false' },
  });
  return `${stdout}\n${stderr}`;
}

interface InstalledPackage {
  path: string;
  json: {
    name: string;
    scripts?: Record<string, string>;
    engines?: { node?: string };
    repository?: unknown;
    homepage?: unknown;
    bugs?: unknown;
  };
}

function pkg(dir: string): InstalledPackage['json'] {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as InstalledPackage['json'];
}

/** Every package under a node_modules folder, scoped and nested ones included. */
function installedPackages(nodeModules: string): InstalledPackage[] {
  if (!existsSync(nodeModules)) return [];
  return readdirSync(nodeModules).flatMap((name): InstalledPackage[] => {
    if (name.startsWith('.')) return [];
    const path = join(nodeModules, name);
    if (name.startsWith('@')) return readdirSync(path).flatMap((sub) => packageAt(join(path, sub)));
    return packageAt(path);
  });
}

function packageAt(path: string): InstalledPackage[] {
  if (!existsSync(join(path, 'package.json'))) return [];
  return [{ path, json: pkg(path) }, ...installedPackages(join(path, 'node_modules'))];
}

/** `du -sk`: the disk space a user sees taken, what README states. */
function kib(path: string): number {
  return Number(execFileSync('du', ['-sk', path], { encoding: 'utf8' }).split('\t')[0]);
}

/** Runs the installed CLI and resolves once it prints its listening line. */
async function startCli(dir: string, args: string[]) {
  const child: ChildProcess = spawn(join(dir, 'node_modules', '.bin', 'petstore-router'), args, {
    cwd: dir,
    env: { ...process.env, PETSTORE_API_KEYS: 'install-key' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in 60 s: ${stderr}`)), 60_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const m = /listening on (\S+)/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the CLI exited with ${code}: ${stderr}`));
    });
  });
  return {
    url,
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
