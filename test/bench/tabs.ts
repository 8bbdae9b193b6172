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

/** One variant's figures, per round. */
interface Series {
  first: number[];
  joining: number[];
  takeover: number[];
  bare: number[];
}

/** One round on `origin`: a store made and closed, opened by a first tab, joined by a second; the leader closed mid-creates; a bare open after. */
async function round(browser: Browser, origin: string, dataDir: string, into: Series): Promise<void> {
  // An existing store: made, given pets, closed (its tab gone).
  const maker = await tab(browser, origin);
  await firstAnswer(maker, dataDir);
  await call<Created[]>(maker, 'createPets', 'made', 20);
  await call(maker, 'closeStore');
  await maker.close();
  const leader = await tab(browser, origin);
  const other = await tab(browser, origin);
  into.first.push(await firstAnswer(leader, dataDir));
  into.joining.push(await firstAnswer(other, dataDir));
  const creating = call<Created[]>(other, 'createPets', 'other', 150);
  await other.waitForFunction(() => (globalThis as unknown as { progress: unknown[] }).progress.length >= 5);
  const closedAt = Date.now();
  await leader.close();
  const answers = await creating;
  // From the close to the other tab's next 201 (a create answered 503 while the leader went is no answer).
  into.takeover.push(answers.find((a) => a.status === 201 && a.at >= closedAt)!.at - closedAt);
  await other.close();
  // The baseline: a bare PGlite opening the directory the other tab left (as the leader left it).
  const baseline = await tab(browser, origin);
  into.bare.push(await call<number>(baseline, 'barePGliteOpen', dataDir));
  await baseline.close();
}

const range = (xs: number[], unit = ' ms') => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}${unit}`;
const ratioRange = (xs: number[]) => `${Math.min(...xs).toFixed(2)}x-${Math.max(...xs).toFixed(2)}x`;

export async function runTabs(log: (s: string) => void): Promise<string> {
  if (!HAS_CHROMIUM) return 'Skipped: no chromium.';
  const rounds = config.quick ? 3 : 7;
  const dir = await servedDir('tabs-page.ts');
  mkdirSync(join(dir, 'profile'));
  // The same files from two origins: one cacheable as a static server sends them, one not (each page load compiles the wasm anew).
  const sites = { cacheable: await serveDir(dir, true), uncached: await serveDir(dir, false) };
  const browser = await launchChromium(dir);
  const series = { cacheable: newSeries(), uncached: newSeries() };
  const load = [loadavg()[0]!];
  try {
    for (let r = 0; r < rounds; r++) {
      for (const variant of ['cacheable', 'uncached'] as const) {
        const s = series[variant];
        await round(browser, sites[variant].origin, `idb://bench-tabs-${r}`, s);
        log(
          `  round ${r + 1}/${rounds}, ${variant}: first tab ${s.first.at(-1)!.toFixed(0)} ms, joining tab ${s.joining.at(-1)!.toFixed(0)} ms, takeover ${s.takeover.at(-1)} ms, bare PGlite open ${s.bare.at(-1)!.toFixed(0)} ms, load ${loadavg()[0]!.toFixed(1)}`,
        );
      }
    }
  } finally {
    await browser.close();
    for (const { server } of Object.values(sites)) server.close();
  }
  load.push(loadavg()[0]!);
  const rows = (name: string, pick: (s: Series) => number[]) =>
    `| ${name} | ${median(pick(series.cacheable)).toFixed(0)} ms | ${range(pick(series.cacheable))} | ${median(pick(series.uncached)).toFixed(0)} ms | ${range(pick(series.uncached))} |`;
  const ratios = (s: Series, a: (s: Series) => number[], b: (s: Series) => number[]) => a(s).map((x, i) => x / b(s)[i]!);
  const ratioRow = (name: string, a: (s: Series) => number[], b: (s: Series) => number[]) => {
    const [c, u] = [ratios(series.cacheable, a, b), ratios(series.uncached, a, b)];
    return `| ${name} | ${median(c).toFixed(2)}x | ${ratioRange(c)} | ${median(u).toFixed(2)}x | ${ratioRange(u)} |`;
  };
  return [
    `Chromium, ${rounds} rounds, each on two origins serving the same files: cacheable (\`Cache-Control: max-age=3600\`, as a static server's files are) and uncached (no cache header: each page load fetches and compiles pglite.wasm again), alternating. Each round a new idb:// directory with 20 pets, closed, then opened by a first tab and joined by a second. Load average (1 min) ${load[0]!.toFixed(1)} at the start, ${load[1]!.toFixed(1)} at the end.`,
    '',
    '| measure | cacheable, median | range | uncached, median | range |',
    '|---|---|---|---|---|',
    rows("first tab's first answer (opens PGlite on the directory)", (s) => s.first),
    rows("joining tab's first answer (another tab holds the store)", (s) => s.joining),
    ratioRow(
      'joining / first, per round',
      (s) => s.joining,
      (s) => s.first,
    ),
    rows("takeover: leader tab closed -> the other tab's next 201", (s) => s.takeover),
    rows('bare PGlite opening that directory, `select 1` answered', (s) => s.bare),
    ratioRow(
      'takeover / bare open, per round',
      (s) => s.takeover,
      (s) => s.bare,
    ),
  ].join('\n');
}

const newSeries = (): Series => ({ first: [], joining: [], takeover: [], bare: [] });
