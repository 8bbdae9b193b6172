/**
 * `npm test` and `npm run test:reliability`: runs uvu with the given arguments, passing its output
 * through unchanged (`.ci/run` reads its Total/Passed/Skipped), and exits non-zero when uvu
 * would exit 0 although some tests did not pass: uvu 0.5 swallows an error thrown by a `before`
 * hook and leaves that suite's tests neither passed nor failed (scripts/uvu-totals.ts).
 *
 * Usage: node --import tsx scripts/uvu-strict.ts [uvu arguments...]
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { uvuFailure } from './uvu-totals.js';

// uvu's package exports no `bin.js`; it sits beside `run/`, which it does export.
const uvuBin = join(dirname(createRequire(import.meta.url).resolve('uvu/run')), '..', 'bin.js');
const child = spawn(process.execPath, [uvuBin, ...process.argv.slice(2)], { stdio: ['inherit', 'pipe', 'inherit'] });

let output = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk: string) => {
  output += chunk;
  process.stdout.write(chunk);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));

child.on('close', (code, signal) => {
  const failure = uvuFailure(output, code ?? 1);
  if (signal) console.error(`uvu-strict: uvu was stopped by ${signal}`);
  else if (failure && code === 0) console.error(`uvu-strict: ${failure}`);
  process.exitCode = signal ? 1 : failure ? code || 1 : 0;
});
