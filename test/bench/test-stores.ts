/**
 * Isolated test stores (`createTestStore()`, petstore-router/testing): creation time after the
 * first of a process (median, p95) when a closed store's schema is reused and when a new schema is
 * migrated, memory per live store (100 alive), RSS growth over 200 create/close cycles, against
 * the previous design (a PGlite per store, loaded from a dumped migrated template) measured in
 * the same run. Runs in a child process of its own (`--expose-gc`), so RSS is this suite's alone.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite, types } from '@electric-sql/pglite';
import { Kysely, PGliteDialect } from 'kysely';
import { type Database, createPetStore, migrate } from 'petstore-router';
import { createTestStore } from 'petstore-router/testing';
import { config } from './config.js';
import { fmt, median, percentile, table } from './stats.js';

type Figures = Record<string, number>;
const MiB = 2 ** 20;
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const rss = () => (gc(), process.memoryUsage().rss);

async function used(store: Awaited<ReturnType<typeof createTestStore>>): Promise<void> {
  const res = await store.fetch(new Request('http://t/v1/pets', { method: 'POST', headers: { authorization: `Bearer ${store.key}`, 'content-type': 'application/json' }, body: '{"name":"a","categoryId":1}' }));
  if (res.status !== 201 || !(await res.text()).startsWith('{"id":1,')) throw new Error('a fresh test store is not fresh');
}

/** The measurements, in this process. */
async function measure(quick: boolean): Promise<Figures> {
  const f: Figures = {};
  let t = performance.now();
  await (await createTestStore()).close();
  f.first = performance.now() - t;

  // Sequential create/close: what a suite pays per test (the schema of the previous test reused).
  const cycles = 200;
  const create: number[] = [];
  const close: number[] = [];
  const before = rss();
  for (let i = 0; i < cycles; i++) {
    t = performance.now();
    const store = await createTestStore();
    create.push(performance.now() - t);
    await used(store);
    t = performance.now();
    await store.close();
    close.push(performance.now() - t);
  }
  f.cycleGrowth = rss() - before;
  Object.assign(f, { reuseMedian: median(create), reuseP95: percentile(create, 95), closeMedian: median(close), closeP95: percentile(close, 95) });

  // 100 alive at once, each made while the others live: the pool runs dry, new schemas are migrated.
  const alive = [];
  const fresh: number[] = [];
  const base = rss();
  for (let i = 0; i < 100; i++) {
    t = performance.now();
    alive.push(await createTestStore());
    fresh.push(performance.now() - t);
  }
  await Promise.all(alive.map(used));
  f.perLiveStore = (rss() - base) / 100;
  Object.assign(f, { newMedian: median(fresh.slice(32)), newP95: percentile(fresh.slice(32), 95) }); // the first 32 reuse the pool
  await Promise.all(alive.map((s) => s.close()));

  // The previous design, same process: a PGlite per store from a dumped migrated template.
  const parsers = { [types.INT8]: (v: string) => BigInt(v) };
  const kysely = (pglite: PGlite) => new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  const template = new PGlite({ parsers });
  await migrate(kysely(template));
  const dump = await template.dumpDataDir('none');
  await template.close();
  const old: number[] = [];
  const oldBase = rss();
  const held: PGlite[] = [];
  for (let i = 0; i < (quick ? 3 : 8); i++) {
    t = performance.now();
    const pglite = new PGlite({ loadDataDir: dump, parsers });
    const db = kysely(pglite);
    await db.connection().execute(async () => {});
    createPetStore({ db, keys: ['k'] });
    old.push(performance.now() - t);
    if (held.length < 2) held.push(pglite); // two alive at once, for their memory
    else await pglite.close();
  }
  f.oldPerLiveStore = (rss() - oldBase) / 2;
  await Promise.all(held.map((p) => p.close()));
  Object.assign(f, { oldMedian: median(old), oldP95: percentile(old, 95), oldN: old.length });
  return f;
}

export async function runTestStores(log: (s: string) => void): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, TEST_STORES_CHILD: '1' },
    maxBuffer: 1 << 20,
    timeout: 15 * 60_000,
  });
  const f = JSON.parse(stdout.trim().split('\n').pop()!) as Figures;
  log(`  reuse median ${fmt.ms(f.reuseMedian!)} ms, new schema median ${fmt.ms(f.newMedian!)} ms, previous design median ${fmt.ms(f.oldMedian!)} ms`);
  return table(['what', 'median ms', 'p95 ms', 'memory', 'notes'], [
    ['`createTestStore()`, first of a process', fmt.ms(f.first!), '', '', 'PGlite initdb + the first schema migrated'],
    ['`createTestStore()`, a closed store\'s schema reused', fmt.ms(f.reuseMedian!), fmt.ms(f.reuseP95!), `RSS +${fmt.mb(f.cycleGrowth!)} MiB over 200 create/close`, 'sequential tests; 200 cycles'],
    ['`close()` (TRUNCATE of the schema for reuse)', fmt.ms(f.closeMedian!), fmt.ms(f.closeP95!), '', '200 cycles'],
    ['`createTestStore()`, a new schema built (100 alive)', fmt.ms(f.newMedian!), fmt.ms(f.newP95!), `${(f.perLiveStore! / MiB).toFixed(2)} MiB per live store`, 'stores 33-100 of 100 kept alive'],
    ['previous design: a PGlite per store from a dumped template', fmt.ms(f.oldMedian!), fmt.ms(f.oldP95!), `${fmt.mb(f.oldPerLiveStore!)} MiB per live store`, `median of ${f.oldN}; 2 alive for memory`],
  ]);
}

if (process.env.TEST_STORES_CHILD === '1') {
  process.stdout.write(`${JSON.stringify(await measure(config.quick))}\n`);
}
