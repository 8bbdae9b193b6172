/**
 * Isolated test stores (`createTestStore()`, petstore-router/testing): creation time after the
 * first of a process (median, p95) when the pool is empty (a new schema built), when a closed
 * store's schema is reused, and with 100 alive; 100 and 200 created at once; memory per live
 * store (100 alive), RSS growth over 200 create/close cycles and after everything is closed, against
 * the previous design (a PGlite per store, loaded from a dumped migrated template) measured in
 * the same run. Runs in a child process of its own (`--expose-gc`), so RSS is this suite's alone.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite, types } from '@electric-sql/pglite';
import { Kysely, PGliteDialect } from 'kysely';
import { type Database, createPetStore, migrate } from 'petstore-router';
import { type TestStore, createTestStore } from 'petstore-router/testing';
import { config } from './config.js';
import { fmt, median, percentile, table } from './stats.js';

type Figures = Record<string, number>;
const MiB = 2 ** 20;
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const rss = () => (gc(), process.memoryUsage().rss);

async function used(store: TestStore): Promise<void> {
  const res = await store.fetch(
    new Request('http://t/v1/pets', {
      method: 'POST',
      headers: { authorization: `Bearer ${store.key}`, 'content-type': 'application/json' },
      body: '{"name":"a","categoryId":1}',
    }),
  );
  if (res.status !== 201 || !(await res.text()).startsWith('{"id":1,')) throw new Error('a fresh test store is not fresh');
}

/** The number in a test store's schema name (`petstore_test_<n>`): names are never reused, so a larger one is a new schema. */
const schemaNumber = (store: TestStore) => Number(/(\d+)$/.exec(store.schema)![1]);

/** The measurements, in this process. */
async function measure(quick: boolean): Promise<Figures> {
  const f: Figures = {};
  let t = performance.now();
  await (await createTestStore()).close();
  f.first = performance.now() - t;
  const start = rss();

  // Pool empty, few alive: 20 stores kept alive one after another, so each needs a new schema.
  const few: TestStore[] = [];
  const empty: number[] = [];
  for (let i = 0; i < 20; i++) {
    t = performance.now();
    few.push(await createTestStore());
    empty.push(performance.now() - t);
  }
  await Promise.all(few.map((s) => s.close())); // 20 free schemas now
  Object.assign(f, { emptyMedian: median(empty), emptyP95: percentile(empty, 95) });

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
  Object.assign(f, {
    reuseMedian: median(create),
    reuseP95: percentile(create, 95),
    closeMedian: median(close),
    closeP95: percentile(close, 95),
  });

  // 100 alive at once, each made while the others live: once the 20 free schemas are taken, new
  // schemas are built while up to 99 others exist.
  const alive: TestStore[] = [];
  const fresh: number[] = [];
  let newest = Math.max(...few.map(schemaNumber));
  const base = rss();
  for (let i = 0; i < 100; i++) {
    t = performance.now();
    const store = await createTestStore();
    const ms = performance.now() - t;
    alive.push(store);
    if (schemaNumber(store) > newest) {
      fresh.push(ms);
      newest = schemaNumber(store);
    }
  }
  await Promise.all(alive.map(used));
  f.perLiveStore = (rss() - base) / 100;
  Object.assign(f, { newMedian: median(fresh), newP95: percentile(fresh, 95), newN: fresh.length });
  await Promise.all(alive.map((s) => s.close()));

  // A burst: 100 created at the same moment (a runner starting 100 concurrent tests), twice. The
  // first finds the 100 closed schemas above; the second too. Then 200 at once: 100 new schemas,
  // and one PGlite runs one statement at a time, so each caller waits for the schemas queued before
  // its own.
  const burst = async (n: number, key: string) => {
    const began = performance.now();
    const waits: number[] = [];
    const stores = await Promise.all(
      Array.from({ length: n }, async () => {
        const store = await createTestStore();
        waits.push(performance.now() - began);
        return store;
      }),
    );
    f[`${key}Total`] = performance.now() - began;
    f[`${key}New`] = stores.filter((s) => schemaNumber(s) > newest).length;
    newest = Math.max(newest, ...stores.map(schemaNumber));
    Object.assign(f, { [`${key}Median`]: median(waits), [`${key}P95`]: percentile(waits, 95) });
    await Promise.all(stores.map(used));
    await Promise.all(stores.map((s) => s.close()));
  };
  await burst(100, 'burst');
  await burst(200, 'bigBurst');
  f.endGrowth = rss() - start;

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
    if (held.length < 2)
      held.push(pglite); // two alive at once, for their memory
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
  log(
    `  reuse median ${fmt.ms(f.reuseMedian!)} ms, new schema median ${fmt.ms(f.emptyMedian!)} ms (few alive), ${fmt.ms(f.newMedian!)} ms (100 alive), previous design median ${fmt.ms(f.oldMedian!)} ms`,
  );
  return table(
    ['what', 'median ms', 'p95 ms', 'memory', 'notes'],
    [
      ['`createTestStore()`, first of a process', fmt.ms(f.first!), '', '', 'PGlite initdb + the first schema built'],
      [
        '`createTestStore()`, pool empty: a new schema built',
        fmt.ms(f.emptyMedian!),
        fmt.ms(f.emptyP95!),
        '',
        '20 stores kept alive one after another',
      ],
      [
        "`createTestStore()`, a closed store's schema reused",
        fmt.ms(f.reuseMedian!),
        fmt.ms(f.reuseP95!),
        `RSS +${fmt.mb(f.cycleGrowth!)} MiB over 200 create/close`,
        'sequential tests; 200 cycles',
      ],
      ['`close()` (TRUNCATE of the schema for reuse)', fmt.ms(f.closeMedian!), fmt.ms(f.closeP95!), '', '200 cycles'],
      [
        '`createTestStore()`, a new schema built while up to 99 others live',
        fmt.ms(f.newMedian!),
        fmt.ms(f.newP95!),
        `${(f.perLiveStore! / MiB).toFixed(2)} MiB per live store`,
        `the ${f.newN} new ones of 100 kept alive`,
      ],
      [
        '100 `createTestStore()` at once (`Promise.all`): wait per caller',
        fmt.ms(f.burstMedian!),
        fmt.ms(f.burstP95!),
        '',
        `${f.burstNew} new schemas; all ready after ${fmt.ms(f.burstTotal!)} ms`,
      ],
      [
        '200 `createTestStore()` at once: wait per caller',
        fmt.ms(f.bigBurstMedian!),
        fmt.ms(f.bigBurstP95!),
        `RSS +${fmt.mb(f.endGrowth!)} MiB after all closed`,
        `${f.bigBurstNew} new schemas; all ready after ${fmt.ms(f.bigBurstTotal!)} ms (${fmt.ms(f.bigBurstTotal! / f.bigBurstNew!)} ms per new schema)`,
      ],
      [
        'previous design: a PGlite per store from a dumped template',
        fmt.ms(f.oldMedian!),
        fmt.ms(f.oldP95!),
        `${fmt.mb(f.oldPerLiveStore!)} MiB per live store`,
        `median of ${f.oldN}; 2 alive for memory`,
      ],
    ],
  );
}

if (process.env.TEST_STORES_CHILD === '1') {
  process.stdout.write(`${JSON.stringify(await measure(config.quick))}\n`);
}
