import type { Kysely } from 'kysely';
import * as assert from 'uvu/assert';
import { suite, type Test } from 'uvu';
import type { Database, PetStoreOptions } from '../../src/index.js';
import { parseJson } from '../../src/http/json-parse.js';
import { resetDatabase } from '../helpers/db.js';
import { type Call, type Transport, openStore } from '../helpers/harness.js';
import { skippedSuite } from '../helpers/postgres-test.js';

/** What a behavioural run is made of: how requests travel, and which database backs the store. */
export interface BehaviourRun {
  label: string;
  transport: Transport;
  getDb: () => Promise<Kysely<Database>>;
  /** Register every test with `test.skip` (PostgreSQL outside CI without DATABASE_URL). */
  skipped?: boolean;
  /**
   * The transport serves one store configured elsewhere (a Worker under wrangler dev), so a test
   * cannot choose the store's options: `withStore` throws, and the tests named here
   * (`'area › test'`) are registered with `test.skip`.
   */
  fixedStore?: { skip: readonly string[] };
}

export interface AreaContext {
  call: Call;
  db: Kysely<Database>;
  close(): Promise<void>;
}

/** A uvu suite for one area of the API: one store for the area, an empty database per test. */
export function area(run: BehaviourRun, name: string, options: Partial<PetStoreOptions> = {}): Test<AreaContext> {
  const test = suite<AreaContext>(`${run.label} › ${name}`, {} as AreaContext);
  if (run.skipped) return skippedSuite(test);
  test.before(async (ctx) => {
    ctx.db = await run.getDb();
    const opened = await openStore(run.transport, ctx.db, options);
    ctx.call = opened.call;
    ctx.close = () => opened.close();
  });
  test.before.each(async (ctx) => resetDatabase(ctx.db));
  test.after(async (ctx) => ctx.close());
  return run.fixedStore ? skipping(test, name, run.fixedStore.skip) : test;
}

/** A second store on the same database with other options, for one test. */
export async function withStore<T>(
  run: BehaviourRun,
  db: Kysely<Database>,
  options: Partial<PetStoreOptions>,
  fn: (call: Call) => Promise<T>,
): Promise<T> {
  if (run.fixedStore) throw new Error(`${run.label}: this test needs a store of its own options; list it in fixedStore.skip`);
  const opened = await openStore(run.transport, db, options);
  try {
    return await fn(opened.call);
  } finally {
    await opened.close();
  }
}

/** `test` on which the tests named in `skip` (`'area › test'`) are registered with `test.skip`. */
function skipping(test: Test<AreaContext>, area: string, skip: readonly string[]): Test<AreaContext> {
  return new Proxy(test, {
    apply: (target, _this, [name, fn]: Parameters<Test<AreaContext>>) =>
      skip.includes(`${area} › ${name}`) ? target.skip(`${name} (needs a store of its own options)`, fn) : target(name, fn),
  });
}

/**
 * Reads a JSON body exactly, as a careful client would: every integer as bigint (so int64 ids
 * are exact), objects as plain objects.
 */
export async function body(res: Response): Promise<any> {
  const text = await res.text();
  return text === '' ? undefined : plain(parseJson(text));
}

function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/** Asserts an error answer: status, Error body with `code`, `message`, `status`; returns the body. */
export async function expectError(res: Response, status: number, code: string): Promise<any> {
  const text = await res.text();
  assert.is(res.status, status, `expected ${status} ${code}, got ${res.status}: ${text}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const err = JSON.parse(text);
  assert.is(err.code, code);
  assert.is(err.status, status);
  assert.type(err.message, 'string');
  assert.ok(err.message.length > 0);
  return err;
}

/** Asserts a 400 whose details name exactly these fields (in any order). */
export async function expectInvalid(res: Response, paths: string[]): Promise<any> {
  const err = await expectError(res, 400, 'invalid_request');
  assert.ok(Array.isArray(err.details), 'details is an array');
  assert.equal([...new Set(err.details.map((d: { path: string }) => d.path))].sort(), [...paths].sort());
  for (const d of err.details) assert.type(d.message, 'string');
  return err;
}

/** POST /pets with a JSON text body; asserts 201 and returns the pet (exact). */
export async function createPet(call: Call, json: string): Promise<any> {
  const res = await call('/v1/pets', { method: 'POST', body: json });
  const pet = await body(res);
  assert.is(res.status, 201, `create failed: ${JSON.stringify(pet, (_, v) => (typeof v === 'bigint' ? String(v) : v))}`);
  return pet;
}

/** Inserts pets directly, bypassing the API (ids may be given, as bigint). */
export async function insertPets(
  db: Kysely<Database>,
  pets: { id?: bigint; name: string; categoryId?: bigint; status?: 'available' | 'pending' | 'sold' }[],
): Promise<void> {
  if (pets.length === 0) return;
  await db
    .insertInto('petstore_pets')
    .values(
      pets.map((p) => ({
        ...(p.id === undefined ? {} : { id: p.id }),
        name: p.name,
        category_id: p.categoryId ?? 1n,
        status: p.status ?? 'available',
      })),
    )
    .execute();
}

/** The URL of a `Link: <url>; rel="next"` header, path and query only. */
export function nextLinkOf(res: Response): string | undefined {
  const link = res.headers.get('link');
  const m = link && /<([^>]+)>;\s*rel="next"/.exec(link);
  if (!m) return undefined;
  const url = new URL(m[1]!);
  return url.pathname + url.search;
}
