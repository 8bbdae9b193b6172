/**
 * In-process on PGlite: `store.fetch` against the database work it does, on one PGlite, in
 * alternating blocks.
 *
 * - "store's statements": the store's own repository calls for the operation (src/storage/pets.ts:
 *   `listPets`, `findPet`, `insertPet`), the very statements `store.fetch` sends, through the same
 *   path to the driver (compiled once, rows as arrays). `store.fetch` minus these is the handler's
 *   own cost: auth, routing, validation, JSON writing, the Response.
 * - "store.fetch": the handler alone (the Request built beforehand, the answer's body unread).
 * - "full call": what a caller pays: `new Request(...)`, `store.fetch`, `await response.text()`.
 * - "Kysely builder": the same SQL written with Kysely's query builder, built and compiled per
 *   call, as a user would write it. It is slower than the store's statements (no builder work on
 *   the store's side), so a comparison against it hides part of the handler's cost: it says what
 *   the store costs against writing the query yourself, not what the handler adds.
 */
import { type Kysely, sql } from 'kysely';
import { type Database, createPetStore } from 'petstore-router';
import { createPGliteDatabase } from 'petstore-router/pglite';
import { entityTag } from '../../src/http/entity-tag.js';
import { findPet, insertPet, listPets } from '../../src/storage/pets.js';
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
  /** store.fetch alone: the Request built beforehand (GETs reused, POSTs built in batches), the answer not read. */
  handlerOnly?: (i: number) => Promise<unknown>;
  /** The query through Kysely's builder, as a user would write it (same SQL text as the store's). */
  viaKysely: (i: number) => Promise<unknown>;
  /** The store's own repository call: the statements store.fetch runs, through the same path. */
  viaStatements: (i: number) => Promise<unknown>;
}

function cases(db: Kysely<Database>, fetch: (r: Request) => Promise<Response>): Case[] {
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
      viaStatements: () => listPets({ kysely: db }, { limit: 20 }),
    },
    {
      name: 'filter (status, limit 100)',
      viaFetch: async () => read(await fetch(new Request(`${ORIGIN}/v1/pets?status=available&limit=100`, { headers })), 200),
      handlerOnly: async () => ok(await fetch(filterReq)),
      viaKysely: () => pets().where('status', '=', 'available').orderBy('petstore_pets.id').limit(sql.lit(101)).execute(),
      viaStatements: () => listPets({ kysely: db }, { limit: 100, status: 'available' }),
    },
    {
      name: 'get by id',
      viaFetch: async (i) => read(await fetch(new Request(`${ORIGIN}/v1/pets/${id(i)}`, { headers })), 200),
      handlerOnly: async (i) => ok(await fetch(getReqs[id(i) - 1]!)),
      viaKysely: (i) =>
        pets()
          .where('id', '=', BigInt(id(i)))
          .executeTakeFirst(),
      viaStatements: (i) => findPet({ kysely: db }, BigInt(id(i))),
    },
    {
      name: 'create',
      viaFetch: async () => read(await fetch(createReq()), 201),
      handlerOnly: async () => ok(await fetch(nextCreate()), 201),
      viaKysely: () =>
        db
          .insertInto('petstore_pets')
          .values({ name: 'Rex', category_id: 7n, status: 'pending' })
          .returning(columns)
          .executeTakeFirstOrThrow(),
      viaStatements: () => insertPet({ kysely: db }, { name: 'Rex', categoryId: 7n, status: 'pending' }),
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
    const handlerMedians = new Map<string, number>();
    for (const c of cases(db, store.fetch)) {
      const variants = { fetch: c.viaFetch, handler: c.handlerOnly, kysely: c.viaKysely, statements: c.viaStatements };
      const samples: Record<string, number[]> = { fetch: [], handler: [], kysely: [], statements: [] };
      for (const fn of Object.values(variants)) if (fn) await timeEach(200, fn); // warm-up: JIT, PGlite caches
      for (let b = 0; b < blocks; b++) {
        for (const [k, fn] of Object.entries(variants)) {
          if (fn) samples[k]!.push(...(await timeEach(perBlock, (i) => fn(b * perBlock + i))));
        }
      }
      const { fetch: f, handler: h, kysely: k, statements: q } = samples as Record<'fetch' | 'handler' | 'kysely' | 'statements', number[]>;
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const adds = (xs: number[], base: number[]) => {
        if (xs.length === 0) return 'n/a';
        const o = median(xs) / median(base) - 1;
        return `${o >= 0 ? '+' : ''}${(o * 100).toFixed(1)}%`;
      };
      const minus = (xs: number[], base: number[]) => (xs.length === 0 ? 'n/a' : fmt.us(median(xs) - median(base)));
      log(
        `  ${c.name}: statements ${fmt.us(median(q))} us, handler ${h.length ? fmt.us(median(h)) : 'n/a'} us, fetch ${fmt.us(median(f))} us, kysely builder ${fmt.us(median(k))} us`,
      );
      if (h.length) handlerMedians.set(c.name, median(h));
      rows.push([
        c.name,
        fmt.us(median(q)),
        h.length ? fmt.us(median(h)) : 'n/a',
        minus(h, q),
        adds(h, q),
        fmt.us(median(f)),
        adds(f, q),
        fmt.us(median(k)),
        adds(f, k),
        fmt.int(1e6 / mean(f)),
        fmt.us(percentile(f, 99)),
      ]);
    }
    return [
      `${ROWS.toLocaleString('en-US')} pets in an in-memory PGlite; one request at a time; ${blocks} alternating blocks of ${perBlock}.`,
      '',
      '"store\'s statements" are the store\'s own repository calls for the operation (`listPets`, `findPet`, `insertPet`):',
      'the statements `store.fetch` runs, through the same path. "store.fetch" is the handler alone (the Request built',
      'beforehand, the answer\'s body left unread); "handler\'s own cost" is its median minus theirs (auth, routing,',
      `validation, JSON, Response). "full call" adds \`new Request(...)\` and \`await response.text()\` (Node ${process.version}).`,
      '"Kysely builder" is the same SQL written with the builder, built and compiled per call, as a user would write it.',
      'Medians; "adds" compares medians.',
      '',
      table(
        [
          'operation',
          "store's statements us",
          'store.fetch us',
          "handler's own cost us",
          "store.fetch adds (vs store's statements)",
          'full call us',
          "full call adds (vs store's statements)",
          'Kysely builder us',
          'full call adds (vs Kysely builder)',
          'full call req/s',
          'full call p99 us',
        ],
        rows,
      ),
      '',
      await etagCost(store.fetch, handlerMedians, blocks),
    ].join('\n');
  } finally {
    await db.destroy();
  }
}

/**
 * What the conditional GET's `ETag` (decisions.md, "conditional GET") costs the three GET
 * operations: the tag of each one's real answer (body and `Link`), hashed in alternating blocks,
 * against the median of `store.fetch` for that operation measured above.
 */
async function etagCost(fetch: (r: Request) => Promise<Response>, handlerMedians: Map<string, number>, blocks: number): Promise<string> {
  const headers = { authorization: `Bearer ${config.apiKey}` };
  const answers: [string, string][] = [
    ['list (limit 20)', `${ORIGIN}/v1/pets?limit=20`],
    ['filter (status, limit 100)', `${ORIGIN}/v1/pets?status=available&limit=100`],
    ['get by id', `${ORIGIN}/v1/pets/1`],
  ];
  const rows: (string | number)[][] = [];
  for (const [name, url] of answers) {
    const res = await fetch(new Request(url, { headers }));
    const link = res.headers.get('link');
    const body = await res.text();
    const samples: number[] = [];
    for (let i = 0; i < 2_000; i++) entityTag(link, body); // warm-up
    for (let b = 0; b < blocks; b++) {
      const started = performance.now();
      for (let i = 0; i < 1_000; i++) entityTag(link, body);
      samples.push(((performance.now() - started) * 1000) / 1_000);
    }
    const tag = median(samples);
    const handler = handlerMedians.get(name);
    rows.push([name, Buffer.byteLength(body), tag.toFixed(2), handler === undefined ? 'n/a' : `${((tag / handler) * 100).toFixed(1)}%`]);
  }
  return [
    "The `ETag` of conditional GET: the tag of each operation's real answer, hashed alone (median of blocks of 1,000), and",
    'its share of the `store.fetch` median above.',
    '',
    table(['operation', 'body bytes', 'ETag us', 'share of store.fetch'], rows),
  ].join('\n');
}
