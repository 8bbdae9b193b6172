/**
 * `npm run bench`: every suite in turn, a markdown report on stdout (progress on stderr), also
 * saved to .cache/bench/report.md. Settings in config.ts (BENCH_QUICK=1 for a smoke run).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { config } from './config.js';
import { httpReport, runHttp } from './http.js';

const log = (s: string) => process.stderr.write(`${s}\n`);
const sections: string[] = [];

const cpuModel = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
sections.push(
  `# petstore-router benchmark, ${new Date().toISOString()}`,
  `Machine: ${cpuModel}, ${cpus().length} cores, Node ${process.version}, ${config.quick ? 'QUICK mode' : 'full mode'}; ` +
    `server on core ${config.serverCpu}, load on core ${config.loadCpu}; ${config.rounds} rounds x ${config.seconds} s, ${config.connections} connections.`,
);

if (config.suites.includes('http')) {
  log('== HTTP on PostgreSQL');
  sections.push('## HTTP on PostgreSQL', httpReport(await runHttp(log)));
}
if (config.suites.includes('inprocess')) {
  log('== in-process on PGlite');
  const { runInProcess } = await import('./inprocess.js');
  sections.push('## In-process on PGlite', await runInProcess(log));
}
if (config.suites.includes('ergonomics')) {
  log('== test-suite ergonomics');
  const { runErgonomics } = await import('./ergonomics.js');
  sections.push('## Test-suite ergonomics', await runErgonomics(log));
}
if (config.suites.includes('scale')) {
  log('== scale');
  const { runScale } = await import('./scale.js');
  sections.push('## Scale', await runScale(log));
}

const report = sections.join('\n\n') + '\n';
mkdirSync(config.workDir, { recursive: true });
writeFileSync(join(config.workDir, 'report.md'), report);
process.stdout.write(report);
