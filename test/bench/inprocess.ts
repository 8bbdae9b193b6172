/**
 * In-process on PGlite: `store.fetch` (building the Request and reading the body included, as a
 * caller pays them) against the same query issued directly through Kysely, on one PGlite, in
 * alternating blocks. The difference is the handler's own overhead: auth, routing, validation,
 * JSON writing, Response.
 *
 * "The same query" twice: as a user writes it with Kysely's query builder (built and compiled per
 * call), and as the very SQL text the store sends (test/bench/baselines/common.ts, checked against
 * the repository by test/baseline-sql.test.ts) run precompiled with `db.executeQuery`, as the store
 * runs it. Against the second, none of the builder's cost hides the handler's.
 */
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { type Database, createPetStore } from 'petstore-router';
import { createPGliteDatabase } from 'petstore-router/pglite';
import { config } from './config.js';
import { SQL } from './baselines/common.js';
import { seedPets } from './db.js';
import { fmt, median, percentile, table, timeEach } from './stats.js';

const ORIGIN = 'http://petstore.bench';
const headers = { authorization: `Bearer ${config.apiKey}` };
const ROWS = 1_000;

interface Case {
  name: string;
  /** The whole call as a caller pays it: build the Request, store.fetch, read the body. */
  viaFetch: (i: number) => Promise<unknown>;
  /** store.fetch alone: the Request built beforehand (GETs reused, POSTs built in batches), the answer not read. */
  handlerOnly?: (i: number) => Promise<unknown>;
  /** The query through Kysely's builder, as a user would write it (same SQL text as the store's). */
  viaKysely: (i: number) => Promise<unknown>;
  /** The store's SQL text, precompiled, through `db.executeQuery`. */
  viaSql: (i: number) => Promise<unknown>;
}

function cases(db: Kysely<Database>, fetch: (r: Request) => Promise<Response>): Case[] {
  const query = (text: string, parameters: unknown[]) => db.executeQuery(CompiledQuery.raw(text, parameters));
  const columns = [sql<string>`"id"::text`.as('id'), 'name', sql<string>`"category_id"::text`.as('categoryId'), 'status'] as const;
  const pets = () => db.selectFrom('petstore_pets').select(columns);
  const read = async (r: Response, status: number) => {
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${await r.text()}`);
    return r.text();
  };
  const id = (i: number) => (i % ROWS) + 1;
  const prebuilt = (path: string) => new Request(`${ORIGIN}${path}`, { headers });
  const listReq = prebuilt('/v1/pets?limit=20');
  const filterReq = prebuilt('/v1/pets?status=available&limit=100');
  const getReqs = Array.from({ length: ROWS }, (_, i) => prebuilt(`/v1/pets/${i + 1}`));
  const ok = (r: Response, status = 200) => {
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}`);
  };
  const createReq = () =>
    new Request(`${ORIGIN}/v1/pets`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":7,"status":"pending"}',
    });
  // A POST body can be read once: Requests are built 100 at a time, in the one timed call that
  // finds none left (1 sample in 100, which the medians below do not see).
  const unsent: Request[] = [];
  const nextCreate = () => {
    if (unsent.length === 0) for (let k = 0; k < 100; k++) unsent.push(createReq());
    return unsent.pop()!;
  };
  return [
    {
      name: 'list (limit 20)',
      viaFetch: async () => read(await fetch(new Request(`${ORIGIN}/v1/pets?limit=20`, { headers })), 200),
      handlerOnly: async () => ok(await fetch(listReq)),
      viaKysely: () => pets().orderBy('petstore_pets.id').limit(sql.lit(21)).execute(),
      viaSql: () => query(SQL.list(21), []),
    },
    {
      name: 'filter (status, limit 100)',
      viaFetch: async () => read(await fetch(new Request(`${ORIGIN}/v1/pets?status=available&limit=100`, { headers })), 200),
      handlerOnly: async () => ok(await fetch(filterReq)),
      viaKysely: () => pets().where('status', '=', 'available').orderBy('petstore_pets.id').limit(sql.lit(101)).execute(),
      viaSql: () => query(SQL.filter(101), ['available']),
    },
    {
      name: 'get by id',
      viaFetch: async (i) => read(await fetch(new Request(`${ORIGIN}/v1/pets/${id(i)}`, { headers })), 200),
      handlerOnly: async (i) => ok(await fetch(getReqs[id(i) - 1]!)),
      viaKysely: (i) => pets().where('id', '=', BigInt(id(i))).executeTakeFirst(),
      viaSql: (i) => query(SQL.get, [BigInt(id(i))]),
    },
    {
      name: 'create',
      viaFetch: async () => read(await fetch(createReq()), 201),
      handlerOnly: async () => ok(await fetch(nextCreate()), 201),
      viaKysely: () =>
        db.insertInto('petstore_pets').values({ name: 'Rex', category_id: 7n, status: 'pending' }).returning(columns).executeTakeFirstOrThrow(),
      viaSql: () => query(SQL.insert, ['Rex', 7n, 'pending']),
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
      const variants = { fetch: c.viaFetch, handler: c.handlerOnly, kysely: c.viaKysely, sql: c.viaSql };
      const samples: Record<string, number[]> = { fetch: [], handler: [], kysely: [], sql: [] };
      for (const [k, fn] of Object.entries(variants)) if (fn) await timeEach(200, fn); // warm-up: JIT, PGlite caches
      for (let b = 0; b < blocks; b++) {
        for (const [k, fn] of Object.entries(variants)) {
          if (fn) samples[k]!.push(...(await timeEach(perBlock, (i) => fn(b * perBlock + i))));
        }
      }
      const { fetch: f, handler: h, kysely: k, sql: q } = samples as Record<'fetch' | 'handler' | 'kysely' | 'sql', number[]>;
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const adds = (xs: number[], base: number[]) => {
        if (xs.length === 0) return 'n/a';
        const o = median(xs) / median(base) - 1;
        return `${o >= 0 ? '+' : ''}${(o * 100).toFixed(1)}%`;
      };
      log(
        `  ${c.name}: fetch ${fmt.us(median(f))} us, handler ${h.length ? fmt.us(median(h)) : 'n/a'} us, kysely ${fmt.us(median(k))} us, precompiled ${fmt.us(median(q))} us`,
      );
      rows.push([
        c.name,
        fmt.us(median(k)),
        fmt.us(median(q)),
        h.length ? fmt.us(median(h)) : 'n/a',
        fmt.us(median(f)),
        adds(h, k),
        adds(h, q),
        adds(f, k),
        fmt.int(1e6 / mean(f)),
        fmt.us(percentile(f, 99)),
      ]);
    }
    return [
      `${ROWS.toLocaleString('en-US')} pets in an in-memory PGlite; one request at a time; ${blocks} alternating blocks of ${perBlock}.`,
      '',
      '"store.fetch" is the handler alone (the Request built beforehand, the answer\'s body left unread); "full call" adds what',
      `the caller pays besides: \`new Request(...)\` and \`await response.text()\` (Node ${process.version}).`,
      '',
      '"Kysely builder" is the query written with the builder (same SQL text); "precompiled" the store\'s SQL run with',
      '`db.executeQuery`, as the store runs it (no builder on either side). Medians; "adds" compares medians.',
      '',
      table(
        [
          'operation',
          'Kysely builder us',
          'precompiled us',
          'store.fetch us',
          'full call us',
          'store.fetch adds (vs builder)',
          'store.fetch adds (vs precompiled)',
          'full call adds (vs builder)',
          'full call req/s',
          'full call p99 us',
        ],
        rows,
      ),
    ].join('\n');
  } finally {
    await db.destroy();
  }
}
