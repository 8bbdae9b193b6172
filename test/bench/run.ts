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

/** Every suite in report order: its BENCH_ONLY name, progress line, section heading and run (imported only when chosen). */
const SUITES: { name: string; progress: string; heading: string; run: () => Promise<string> }[] = [
  { name: 'http', progress: 'HTTP on PostgreSQL', heading: 'HTTP on PostgreSQL', run: async () => httpReport(await runHttp(log)) },
  {
    name: 'inprocess',
    progress: 'in-process on PGlite',
    heading: 'In-process on PGlite',
    run: async () => {
      // Bundled like the published package (servers.ts, bundle): what a user's test suite imports.
      const built = await bundle({ inprocess: 'test/bench/inprocess.ts' }, join(config.workDir, 'suites'));
      const { runInProcess } = (await import(built.get('inprocess')!)) as typeof import('./inprocess.js');
      return runInProcess(log);
    },
  },
  {
    name: 'ergonomics',
    progress: 'test-suite ergonomics',
    heading: 'Test-suite ergonomics',
    run: async () => (await import('./ergonomics.js')).runErgonomics(log),
  },
  {
    name: 'test-stores',
    progress: 'isolated test stores',
    heading: 'Isolated test stores (`createTestStore()`)',
    run: async () => (await import('./test-stores.js')).runTestStores(log),
  },
  {
    name: 'first-store',
    progress: 'first store and first start (snapshot)',
    heading: 'First store and first start (pre-migrated snapshot)',
    run: async () => (await import('./first-store.js')).runFirstStore(log),
  },
  {
    name: 'tabs',
    progress: 'browser tabs (chromium)',
    heading: 'Many tabs, one browser store (chromium)',
    run: async () => (await import('./tabs.js')).runTabs(log),
  },
  {
    name: 'browser-snapshot',
    progress: 'browser snapshot (chromium)',
    heading: 'The pre-migrated snapshot in the browser (chromium)',
    run: async () => (await import('./browser-snapshot.js')).runBrowserSnapshot(log),
  },
  { name: 'scale', progress: 'scale', heading: 'Scale', run: async () => (await import('./scale.js')).runScale(log) },
  {
    name: 'overload',
    progress: 'overload (load shedding)',
    heading: 'Overload: 32 and 2,000 connections, clients honouring Retry-After',
    run: async () => (await import('./overload.js')).runOverload(log),
  },
  {
    name: 'replica',
    progress: 'read replicas',
    heading: 'Read replicas (none vs one streaming replica)',
    run: async () => (await import('./replica.js')).runReplica(log),
  },
  {
    name: 'json-parse',
    progress: 'exact-int64 JSON parse',
    heading: "Exact-int64 JSON parse of a create's body",
    run: async () => (await import('./json-parse.js')).runJsonParse(),
  },
];

for (const suite of SUITES) {
  if (!config.suites.includes(suite.name)) continue;
  log(`== ${suite.progress}`);
  sections.push(`## ${suite.heading}`, await suite.run());
  flush();
}
if (printed < sections.length) flush();
