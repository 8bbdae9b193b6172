// The pre-migrated snapshot in the browser (petstore-router/browser in Debian's chromium): time from
// createBrowserStore to the first answer with the snapshot against without it (initdb and every
// migration), same page, rounds interleaved; in memory, and in a new idb:// directory each time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { browserSnapshot } from '../../src/pglite.js';
import { HAS_CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { serveDir, servedDir } from '../helpers/browser-page/site.js';
import { config } from './config.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const GZIP = '/petstore.snapshot';
const TAR = '/petstore.tar.snapshot';

export async function runBrowserSnapshot(log: (s: string) => void): Promise<string> {
  if (!HAS_CHROMIUM) return 'Skipped: no chromium.';
  const dir = await servedDir();
  writeFileSync(join(dir, TAR.slice(1)), await browserSnapshot({ gzip: false }));
  writeFileSync(join(dir, GZIP.slice(1)), await browserSnapshot());
  mkdirSync(join(dir, 'profile'));
  const { server, origin } = await serveDir(dir);
  const browser = await launchChromium(dir);
  const load = [loadavg()[0]!];
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(300_000);
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    await page.waitForFunction(() => 'firstAnswers' in globalThis);
    const firstAnswers = (rounds: number, snapshots: string[], idb: boolean) =>
      page.evaluate(
        (r, s, i) =>
          (globalThis as unknown as { firstAnswers(r: number, s: string[], i: boolean): Promise<Record<string, number[]>> }).firstAnswers(
            r,
            s,
            i,
          ),
        rounds,
        snapshots,
        idb,
      );
    const memory = await firstAnswers(config.quick ? 3 : 7, [GZIP, TAR], false);
    log(`  in memory: ${JSON.stringify(memory)}`);
    const idb = await firstAnswers(config.quick ? 2 : 5, [GZIP], true);
    log(`  idb://: ${JSON.stringify(idb)}`);
    load.push(loadavg()[0]!);
    const row = (what: string, times: number[], none: number[]) =>
      `| ${what} | ${median(times).toFixed(0)} ms | ${(median(times) / median(none)).toFixed(2)}x |`;
    return [
      '| First answer (median) | Time | Against no snapshot, same run |',
      '| --- | ---: | ---: |',
      row('in memory, no snapshot', memory.none!, memory.none!),
      row('in memory, snapshot (gzip)', memory[GZIP]!, memory.none!),
      row('in memory, snapshot (--no-gzip)', memory[TAR]!, memory.none!),
      row('new idb:// directory, no snapshot', idb.none!, idb.none!),
      row('new idb:// directory, snapshot (gzip)', idb[GZIP]!, idb.none!),
      '',
      `Rounds interleaved in one page; load average ${load.map((l) => l.toFixed(1)).join(' -> ')} on ${config.quick ? 'quick' : 'full'} settings.`,
    ].join('\n');
  } finally {
    await browser.close();
    server.close();
  }
}
