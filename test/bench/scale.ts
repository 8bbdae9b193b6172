/**
 * Scale: list and filter latency through `store.fetch` on PostgreSQL with 1,000 and with
 * 1,000,000 pets (bulk-loaded with generate_series, then ANALYZE). Keyset pagination on
 * `(status, id)` and the primary key should make both sizes cost the same; the deep page (a
 * cursor halfway through the table) shows it for later pages too.
 */
import type { Kysely } from 'kysely';
import { type Database, createPetStore } from 'petstore-router';
import { createPostgresDatabase } from 'petstore-router/pg';
import { config } from './config.js';
import { seedPets, siblingDatabase } from './db.js';
import { fmt, median, percentile, table, timeEach } from './stats.js';

const headers = { authorization: `Bearer ${config.apiKey}` };

function requests(rows: number): Record<string, string> {
  const cursor = (status: string, afterId: number) => Buffer.from(`pets:${status}:${afterId}`).toString('base64url');
  return {
    'list (limit 20)': '/v1/pets?limit=20',
    'filter (status, limit 100)': '/v1/pets?status=available&limit=100',
    'list, page halfway (cursor)': `/v1/pets?limit=20&cursor=${cursor('', Math.floor(rows / 2))}`,
    'filter, page halfway (cursor)': `/v1/pets?status=available&limit=100&cursor=${cursor('available', Math.floor(rows / 2))}`,
  };
}

function caller(db: Kysely<Database>) {
  const store = createPetStore({ db, keys: [config.apiKey] });
  return async (path: string) => {
    const res = await store.fetch(new Request(`http://bench${path}`, { headers }));
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    await res.text();
  };
}

/**
 * Both sizes live at once, in two databases of the same server, and are measured in alternating
 * blocks, so noise from the shared machine falls on both alike.
 */
export async function runScale(log: (s: string) => void): Promise<string> {
  const n = config.quick ? 200 : 1000;
  const block = 50;
  const sizes = [1_000, config.scaleRows] as const;
  const dbs = [
    await createPostgresDatabase(config.databaseUrl),
    await createPostgresDatabase(await siblingDatabase(config.databaseUrl, '_scale')),
  ];
  const samples = sizes.map(() => new Map<string, number[]>());
  try {
    for (let i = 0; i < sizes.length; i++) {
      const t = performance.now();
      await seedPets(dbs[i]!, sizes[i]!);
      log(`  loaded ${sizes[i]!.toLocaleString('en-US')} pets in ${fmt.int(performance.now() - t)} ms`);
    }
    const calls = dbs.map(caller);
    for (const name of Object.keys(requests(1))) {
      const paths = sizes.map((rows) => requests(rows)[name]!);
      for (let i = 0; i < sizes.length; i++) await timeEach(block, () => calls[i]!(paths[i]!)); // warm-up
      for (let done = 0; done < n; done += block) {
        for (let i = 0; i < sizes.length; i++) {
          const times = await timeEach(block, () => calls[i]!(paths[i]!));
          samples[i]!.set(name, [...(samples[i]!.get(name) ?? []), ...times]);
        }
      }
      log(`  ${name}: ${sizes.map((s, i) => `${fmt.ms(median(samples[i]!.get(name)!) / 1000)} ms @ ${s}`).join(', ')}`);
    }
  } finally {
    for (const db of dbs) await db.destroy();
  }
  const [small, large] = samples as [Map<string, number[]>, Map<string, number[]>];
  const body = [...small.keys()].map((name) => {
    const a = small.get(name)!;
    const b = large.get(name)!;
    return [
      name,
      fmt.ms(median(a) / 1000),
      fmt.ms(median(b) / 1000),
      fmt.ratio(median(b) / median(a)),
      fmt.ms(percentile(a, 99) / 1000),
      fmt.ms(percentile(b, 99) / 1000),
    ];
  });
  const big = config.scaleRows.toLocaleString('en-US');
  return [
    `PostgreSQL, in-process \`store.fetch\`, one request at a time; the two tables live in two databases of one server and are measured in alternating blocks of ${block}, ${n} requests each (after ${block} of warm-up). Tables bulk-loaded with generate_series, then VACUUM ANALYZE.`,
    '',
    table(['request', 'median ms @ 1,000', `median ms @ ${big}`, 'ratio', 'p99 ms @ 1,000', `p99 ms @ ${big}`], body),
  ].join('\n');
}
