// docs/lifecycle.md names every file of ours one `POST /v1/pets` runs through the Node adapter, on
// PGlite and on PostgreSQL: scripts/request-files.ts derives those files (V8 coverage around one
// request), so the doc cannot fall behind a split or a merge. Every file the doc names exists.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postgresTest } from './helpers/postgres-test.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const doc = readFileSync(`${root}docs/lifecycle.md`, 'utf8');
const named = new Set([...doc.matchAll(/`((?:src|adapters)\/[\w./-]+\.ts)`/g)].map((m) => m[1]!));

async function filesRun(driver: 'pglite' | 'pg', url?: string): Promise<string[]> {
  const env = url ? { ...process.env, DATABASE_URL: url } : process.env;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/request-files.ts', driver], {
    cwd: root,
    env,
  });
  const files = stdout.split('\n').filter(Boolean);
  assert.ok(files.includes('src/pipeline/pipeline.ts'), `the request ran no pipeline?\n${stdout}`);
  return files;
}

function assertNamed(files: readonly string[], driver: string): void {
  const missing = files.filter((file) => !named.has(file));
  assert.equal(missing, [], `docs/lifecycle.md does not name these files one POST /v1/pets runs on ${driver}`);
}

test('every file docs/lifecycle.md names exists', () => {
  assert.ok(named.size >= 10, 'docs/lifecycle.md names the files of a request');
  const gone = [...named].filter((file) => !existsSync(`${root}${file}`));
  assert.equal(gone, [], 'docs/lifecycle.md names files that do not exist');
});

test('docs/lifecycle.md names every file one POST /v1/pets runs on PGlite', async () => {
  assertNamed(await filesRun('pglite'), 'PGlite');
});

postgresTest(test, 'docs/lifecycle.md names every file one POST /v1/pets runs on PostgreSQL', async (url) => {
  assertNamed(await filesRun('pg', url), 'PostgreSQL');
});

test.run();
