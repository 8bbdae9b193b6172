// Many tabs, one store (petstore-router/browser in Debian's chromium): the first answer of a tab that
// joins a store another tab holds, against a first tab's on the same existing idb:// directory (what
// every tab paid before tabs shared: open PGlite on the directory), same run, rounds interleaved;
// and how long after the leader tab closes another tab creates again (the takeover), against a bare
// PGlite opening the same directory afterwards (what a takeover cannot avoid), same round.
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { HAS_CHROMIUM, launchChromium } from '../helpers/chromium.js';
import { serveDir, servedDir } from '../helpers/browser-page/site.js';
import type { Created } from '../helpers/browser-page/tabs-page.js';
import { config } from './config.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function call<T>(page: Page, name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    (n, a) => (globalThis as unknown as Record<string, (...x: unknown[]) => unknown>)[n]!(...a),
    name,
    args,
  ) as Promise<T>;
}

async function tab(browser: Browser, origin: string): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(120_000);
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  await page.waitForFunction(() => 'openStore' in globalThis);
  return page;
}

async function firstAnswer(page: Page, dataDir: string): Promise<number> {
  const result = await call<{ ms: number } | { error: string }>(page, 'openStore', dataDir);
  if ('error' in result) throw new Error(result.error);
  return result.ms;
}

export async function runTabs(log: (s: string) => void): Promise<string> {
  if (!HAS_CHROMIUM) return 'Skipped: no chromium.';
  const rounds = config.quick ? 3 : 7;
  const dir = await servedDir('tabs-page.ts');
  mkdirSync(join(dir, 'profile'));
  const { server, origin } = await serveDir(dir);
  const browser = await launchChromium(dir);
  const first: number[] = [];
  const joining: number[] = [];
  const takeover: number[] = [];
  const bare: number[] = [];
  const load = [loadavg()[0]!];
  try {
    for (let round = 0; round < rounds; round++) {
      const dataDir = `idb://bench-tabs-${round}`;
      // An existing store: made, given pets, closed (its tab gone).
      const maker = await tab(browser, origin);
      await firstAnswer(maker, dataDir);
      await call<Created[]>(maker, 'createPets', 'made', 20);
      await call(maker, 'closeStore');
      await maker.close();
      const leader = await tab(browser, origin);
      const other = await tab(browser, origin);
      first.push(await firstAnswer(leader, dataDir));
      joining.push(await firstAnswer(other, dataDir));
      const creating = call<Created[]>(other, 'createPets', 'other', 150);
      await other.waitForFunction(() => (globalThis as unknown as { progress: unknown[] }).progress.length >= 5);
      const closedAt = Date.now();
      await leader.close();
      const answers = await creating;
      // From the close to the other tab's next 201 (a create answered 503 while the leader went is no answer).
      takeover.push(answers.find((a) => a.status === 201 && a.at >= closedAt)!.at - closedAt);
      await other.close();
      // The baseline: a bare PGlite opening the directory the other tab left (as the leader left it).
      const baseline = await tab(browser, origin);
      bare.push(await call<number>(baseline, 'barePGliteOpen', dataDir));
      await baseline.close();
      log(
        `  round ${round + 1}/${rounds}: first tab ${first.at(-1)!.toFixed(0)} ms, joining tab ${joining.at(-1)!.toFixed(0)} ms, takeover ${takeover.at(-1) ?? '-'} ms, bare PGlite open ${bare.at(-1)!.toFixed(0)} ms, load ${loadavg()[0]!.toFixed(1)}`,
      );
    }
  } finally {
    await browser.close();
    server.close();
  }
  load.push(loadavg()[0]!);
  const ratios = first.map((f, i) => joining[i]! / f);
  const overBare = takeover.map((t, i) => t / bare[i]!);
  return [
    `Chromium, ${rounds} rounds; each round a new idb:// directory with 20 pets, closed, then opened by a first tab and joined by a second. Load average (1 min) ${load[0]!.toFixed(1)} at the start, ${load[1]!.toFixed(1)} at the end.`,
    '',
    '| measure | median | range |',
    '|---|---|---|',
    `| first tab's first answer (opens PGlite on the directory) | ${median(first).toFixed(0)} ms | ${Math.min(...first).toFixed(0)}-${Math.max(...first).toFixed(0)} ms |`,
    `| joining tab's first answer (another tab holds the store) | ${median(joining).toFixed(0)} ms | ${Math.min(...joining).toFixed(0)}-${Math.max(...joining).toFixed(0)} ms |`,
    `| joining / first, per round | ${median(ratios).toFixed(2)}x | ${Math.min(...ratios).toFixed(2)}x-${Math.max(...ratios).toFixed(2)}x |`,
    `| takeover: leader tab closed -> the other tab's next 201 | ${median(takeover).toFixed(0)} ms | ${Math.min(...takeover)}-${Math.max(...takeover)} ms |`,
    `| bare PGlite opening that directory, \`select 1\` answered | ${median(bare).toFixed(0)} ms | ${Math.min(...bare).toFixed(0)}-${Math.max(...bare).toFixed(0)} ms |`,
    `| takeover / bare open, per round | ${median(overBare).toFixed(2)}x | ${Math.min(...overBare).toFixed(2)}x-${Math.max(...overBare).toFixed(2)}x |`,
  ].join('\n');
}
