/**
 * `npm run bench`: every suite in turn, a markdown report on stdout (progress on stderr), also
 * saved to .cache/bench/report.md. Settings in config.ts (BENCH_QUICK=1 for a smoke run).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { config } from './config.js';
import { httpReport, runHttp } from './http.js';
import { bundle } from './servers.js';

const log = (s: string) => process.stderr.write(`${s}\n`);
// Each section is printed and saved as soon as its suite ends, so a later failure loses nothing.
const sections: string[] = [];
const reportFile = join(config.workDir, 'report.md');
mkdirSync(config.workDir, { recursive: true });
let printed = 0;
const flush = () => {
  writeFileSync(reportFile, sections.join('\n\n') + '\n');
  process.stdout.write(sections.slice(printed).join('\n\n') + '\n\n');
  printed = sections.length;
};

const cpuModel = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
sections.push(
  `# petstore-router benchmark, ${new Date().toISOString()}`,
  `Machine: ${cpuModel}, ${cpus().length} cores, Node ${process.version}, ${config.quick ? 'QUICK mode' : 'full mode'}; ` +
    `server on core ${config.serverCpu}, load on core ${config.loadCpu}; ${config.rounds} rounds x ${config.seconds} s, ${config.connections} connections.`,
);

if (config.suites.includes('http')) {
  log('== HTTP on PostgreSQL');
  sections.push('## HTTP on PostgreSQL', httpReport(await runHttp(log)));
  flush();
}
if (config.suites.includes('inprocess')) {
  log('== in-process on PGlite');
  // Bundled like the published package (servers.ts, bundle): what a user's test suite imports.
  const built = await bundle({ inprocess: 'test/bench/inprocess.ts' }, join(config.workDir, 'suites'));
  const { runInProcess } = (await import(built.get('inprocess')!)) as typeof import('./inprocess.js');
  sections.push('## In-process on PGlite', await runInProcess(log));
  flush();
}
if (config.suites.includes('ergonomics')) {
  log('== test-suite ergonomics');
  const { runErgonomics } = await import('./ergonomics.js');
  sections.push('## Test-suite ergonomics', await runErgonomics(log));
  flush();
}
if (config.suites.includes('test-stores')) {
  log('== isolated test stores');
  const { runTestStores } = await import('./test-stores.js');
  sections.push('## Isolated test stores (`createTestStore()`)', await runTestStores(log));
  flush();
}
if (config.suites.includes('first-store')) {
  log('== first store and first start (snapshot)');
  const { runFirstStore } = await import('./first-store.js');
  sections.push('## First store and first start (pre-migrated snapshot)', await runFirstStore(log));
  flush();
}
if (config.suites.includes('tabs')) {
  log('== browser tabs (chromium)');
  const { runTabs } = await import('./tabs.js');
  sections.push('## Many tabs, one browser store (chromium)', await runTabs(log));
  flush();
}
if (config.suites.includes('browser-snapshot')) {
  log('== browser snapshot (chromium)');
  const { runBrowserSnapshot } = await import('./browser-snapshot.js');
  sections.push('## The pre-migrated snapshot in the browser (chromium)', await runBrowserSnapshot(log));
  flush();
}
if (config.suites.includes('scale')) {
  log('== scale');
  const { runScale } = await import('./scale.js');
  sections.push('## Scale', await runScale(log));
  flush();
}
if (config.suites.includes('overload')) {
  log('== overload (load shedding)');
  const { runOverload } = await import('./overload.js');
  sections.push('## Overload: 32 and 2,000 connections, clients honouring Retry-After', await runOverload(log));
  flush();
}
if (config.suites.includes('replica')) {
  log('== read replicas');
  const { runReplica } = await import('./replica.js');
  sections.push('## Read replicas (none vs one streaming replica)', await runReplica(log));
  flush();
}
if (config.suites.includes('json-parse')) {
  log('== exact-int64 JSON parse');
  const { runJsonParse } = await import('./json-parse.js');
  sections.push("## Exact-int64 JSON parse of a create's body", runJsonParse());
  flush();
}
if (printed < sections.length) flush();
