// Issue 27's bound: one POST /v1/pets through the Node adapter on PGlite runs code in at most 15
// files of ours. scripts/count-files.ts measures it (V8 precise coverage around one request after a
// warm-up) and exits 1 past the limit; this runs it, so the bound holds in `npm test` and CI.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = fileURLToPath(new URL('..', import.meta.url));

test('one POST /v1/pets through the Node adapter on PGlite runs code in at most 15 files of ours', async () => {
  const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/count-files.ts', '--list'], { cwd: root }).catch(
    (error: { code?: number; stdout?: string; stderr?: string }) => error,
  );
  const stdout = run.stdout ?? '';
  const count = /ran code in (\d+) files of ours \(limit 15\)/.exec(stdout);
  assert.ok(count, `scripts/count-files.ts printed no count:\n${stdout}${run.stderr ?? ''}`);
  assert.ok(Number(count[1]) <= 15, `the files one POST /v1/pets ran code in:\n${stdout}`);
  assert.is('code' in run ? run.code : 0, 0, `scripts/count-files.ts failed:\n${stdout}${run.stderr ?? ''}`);
});

test.run();
