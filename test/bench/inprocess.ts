/**
 * In-process on PGlite: `store.fetch` (building the Request and reading the body included, as a
 * caller pays them) against the same query issued directly through Kysely, on one PGlite, in
 * alternating blocks. The difference is the handler's own overhead: auth, routing, validation,
 * JSON writing, Response.
 */
import type { Kysely } from 'kysely';
import { type Database, createPetStore } from 'petstore-router';
import { createPGliteDatabase } from 'petstore-router/pglite';
import { config } from './config.js';
import { seedPets } from './db.js';
import { fmt, median, percentile, table, timeEach } from './stats.js';

const ORIGIN = 'http://petstore.bench';
const headers = { authorization: `Bearer ${config.apiKey}` };
const ROWS = 1_000;

interface Case {
  name: string;
  /** The whole call as a caller pays it: build the Request, store.fetch, read the body. */
  viaFetch: (i: number) => Promise<unknown>;
  /** store.fetch alone: a Request built beforehand (GETs are reusable), the body not read. */
  handlerOnly?: (i: number) => Promise<unknown>;
  viaKysely: (i: number) => Promise<unknown>;
}

function cases(db: Kysely<Database>, fetch: (r: Request) => Promise<Response>): Case[] {
  const pets = () => db.selectFrom('petstore_pets').select(['id', 'name', 'category_id', 'status']);
  const read = async (r: Response, status: number) => {
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${await r.text()}`);
    return r.text();
  };
  const id = (i: number) => (i % ROWS) + 1;
  const prebuilt = (path: string) => new Request(`${ORIGIN}${path}`, { headers });
  const listReq = prebuilt('/v1/pets?limit=20');
  const filterReq = prebuilt('/v1/pets?status=available&limit=100');
  const getReqs = Array.from({ length: ROWS }, (_, i) => prebuilt(`/v1/pets/${i + 1}`));
  const ok = (r: Response) => {
    if (r.status !== 200) throw new Error(`expected 200, got ${r.status}`);
  };
  return [
    {
      name: 'list (limit 20)',
      viaFetch: async () => read(await fetch(new Request(`${ORIGIN}/v1/pets?limit=20`, { headers })), 200),
      handlerOnly: async () => ok(await fetch(listReq)),
      viaKysely: () => pets().orderBy('id').limit(21).execute(),
    },
    {
      name: 'filter (status, limit 100)',
      viaFetch: async () => read(await fetch(new Request(`${ORIGIN}/v1/pets?status=available&limit=100`, { headers })), 200),
      handlerOnly: async () => ok(await fetch(filterReq)),
      viaKysely: () => pets().where('status', '=', 'available').orderBy('id').limit(101).execute(),
    },
    {
      name: 'get by id',
      viaFetch: async (i) => read(await fetch(new Request(`${ORIGIN}/v1/pets/${id(i)}`, { headers })), 200),
      handlerOnly: async (i) => ok(await fetch(getReqs[id(i) - 1]!)),
      viaKysely: (i) => pets().where('id', '=', BigInt(id(i))).executeTakeFirst(),
    },
    {
      name: 'create',
      viaFetch: async () =>
        read(
          await fetch(
            new Request(`${ORIGIN}/v1/pets`, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: '{"name":"Rex","categoryId":7,"status":"pending"}',
            }),
          ),
          201,
        ),
      viaKysely: () =>
        db
          .insertInto('petstore_pets')
          .values({ name: 'Rex', category_id: 7n, status: 'pending' })
          .returning(['id', 'name', 'category_id', 'status'])
          .executeTakeFirstOrThrow(),
    },
  ];
}

export async function runInProcess(log: (s: string) => void): Promise<string> {
  const db = await createPGliteDatabase();
  try {
    await seedPets(db, ROWS);
    const store = createPetStore({ db, keys: [config.apiKey] });
    const blocks = config.quick ? 10 : 40;
    const perBlock = 100;
    const rows: (string | number)[][] = [];
    for (const c of cases(db, store.fetch)) {
      const variants = { fetch: c.viaFetch, handler: c.handlerOnly, kysely: c.viaKysely };
      const samples: Record<string, number[]> = { fetch: [], handler: [], kysely: [] };
      for (const [k, fn] of Object.entries(variants)) if (fn) await timeEach(200, fn); // warm-up: JIT, PGlite caches
      for (let b = 0; b < blocks; b++) {
        for (const [k, fn] of Object.entries(variants)) {
          if (fn) samples[k]!.push(...(await timeEach(perBlock, (i) => fn(b * perBlock + i))));
        }
      }
      const { fetch: f, handler: h, kysely: k } = samples as Record<'fetch' | 'handler' | 'kysely', number[]>;
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const adds = (xs: number[]) => {
        if (xs.length === 0) return 'n/a';
        const o = median(xs) / median(k) - 1;
        return `${o >= 0 ? '+' : ''}${(o * 100).toFixed(1)}%`;
      };
      log(`  ${c.name}: fetch ${fmt.us(median(f))} us, handler ${h.length ? fmt.us(median(h)) : 'n/a'} us, kysely ${fmt.us(median(k))} us`);
      rows.push([
        c.name,
        fmt.int(1e6 / mean(f)),
        fmt.int(1e6 / mean(k)),
        fmt.us(median(k)),
        h.length ? fmt.us(median(h)) : 'n/a',
        fmt.us(median(f)),
        fmt.us(percentile(k, 99)),
        fmt.us(percentile(f, 99)),
        adds(h),
        adds(f),
      ]);
    }
    return [
      `${ROWS.toLocaleString('en-US')} pets in an in-memory PGlite; one request at a time; ${blocks} alternating blocks of ${perBlock}.`,
      '',
      '"store.fetch" is the handler alone (a GET Request built beforehand, the body left unread); "full call" adds what the',
      'caller pays on Node 20 besides: `new Request(...)` and `await response.text()` (undici: ~10 us and ~45 us).',
      'A POST body can be read once, so create is measured as the full call only.',
      '',
      table(
        ['operation', 'full call req/s', 'Kysely req/s', 'Kysely median us', 'store.fetch median us', 'full call median us', 'Kysely p99 us', 'full call p99 us', 'store.fetch adds', 'full call adds'],
        rows,
      ),
    ].join('\n');
  } finally {
    await db.destroy();
  }
}
