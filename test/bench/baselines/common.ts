/**
 * What the two baseline servers share with each other and with petstore-router: the SQL text
 * (exactly what Kysely compiles for our repositories, so PostgreSQL runs the same statements), the
 * cursor format, the API-key check and the deprecation headers. Validation, HTTP handling and how
 * the SQL is sent are written in each baseline's own idiom: node-pg names its statements and asks
 * for array rows, as petstore-router does on pools it creates (PostgreSQL then parses and plans
 * each statement once per connection, the same work as for petstore-router); Fastify sends them
 * unnamed with object rows, as idiomatic pg code does (PostgreSQL parses and plans every query:
 * more database work than petstore-router's, reported as PostgreSQL CPU per request by the bench).
 *
 * The API's operating and caching rules are the same for every server (../shared/spec/decisions.md,
 * "Operating and integrating"; docs/decisions.md): every answer carries `X-Request-Id` (the
 * request's own when valid, else a new UUID), and a GET's 200 carries an `ETag` and
 * `Cache-Control: private, no-cache` and becomes a 304 when `If-None-Match` matches. The baselines
 * tag with petstore-router's own entity-tag function (the cheapest we know), so every server
 * hashes the same bytes the same way and the comparison is of everything else.
 *
 * Deliberate, documented differences (they make the baselines do slightly *less* work than us, so
 * the comparison is conservative): request bodies are read with `JSON.parse`, so `categoryId`
 * past 2^53 is refused instead of kept exact, and `1.0` is accepted as an integer.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import pg from 'pg';
import { entityTag, ifNoneMatchMatches } from '../../../src/http/entity-tag.js';
import { requestIdFromHeader } from '../../../src/pipeline/pipeline.js';

export const BASE = '/v1';

// The statements Kysely compiles for src/storage/pets.ts, character for character (checked by
// test/baseline-sql.test.ts): int8 as text and the API's column names, as our repository reads them.
const OUTPUT = '"id"::text as "id", "name", "category_id"::text as "categoryId", "status"';
const SELECT = `select ${OUTPUT} from "petstore_pets"`;
const ORDER = 'order by "petstore_pets"."id"';
export const SQL = {
  list: (rows: number) => `${SELECT} ${ORDER} limit ${rows}`,
  listAfter: (rows: number) => `${SELECT} where "id" > $1 ${ORDER} limit ${rows}`,
  filter: (rows: number) => `${SELECT} where "status" = $1 ${ORDER} limit ${rows}`,
  filterAfter: (rows: number) => `${SELECT} where "status" = $1 and "id" > $2 ${ORDER} limit ${rows}`,
  get: `${SELECT} where "id" = $1`,
  insert: `insert into "petstore_pets" ("name", "category_id", "status") values ($1, $2, $3) returning ${OUTPUT}`,
} as const;

/**
 * The rows a page of `limit` statement reads, a constant in its text as in our repository (see
 * src/storage/page-rows.ts for why): limit + 1 rounded up to 11, 21, 51 or 101. The
 * baselines then keep limit + 1 of them, as the repository does.
 */
export function pageRows(limit: number): number {
  for (const rows of [11, 21, 51, 101]) if (limit + 1 <= rows) return rows;
  return limit + 1;
}

const NAMES = new Map<string, string>();
/**
 * pg's documented query config for a named statement with array rows: one fixed name per text
 * (this process's only statements), as a careful developer writing the floor would name them.
 */
export function named(text: string, values: unknown[]): pg.QueryArrayConfig {
  let name = NAMES.get(text);
  if (name === undefined) NAMES.set(text, (name = `pets_${NAMES.size}`));
  return { name, text, values, rowMode: 'array' };
}

/** A pet row in array mode, in the statements' column order. */
export type PetTuple = [id: string, name: string, categoryId: string, status: Status];

/** One pet as JSON from an array row. */
export function tupleJson(r: PetTuple): string {
  return `{"id":${r[0]},"name":${JSON.stringify(r[1])},"categoryId":${r[2]},"status":"${r[3]}"}`;
}

export function tuplesJson(rows: readonly PetTuple[]): string {
  let out = '[';
  for (let i = 0; i < rows.length; i++) out += (i ? ',' : '') + tupleJson(rows[i]!);
  return out + ']';
}

export const STATUSES = ['available', 'pending', 'sold'] as const;
export type Status = (typeof STATUSES)[number];

export interface PetRow {
  id: string; // int8 arrives as text (cast in the SQL): written to JSON as is, exact
  name: string;
  categoryId: string;
  status: Status;
}

/** One pet as JSON; ids are int8 text from pg, so they are written exactly. */
export function petJson(r: PetRow): string {
  return `{"id":${r.id},"name":${JSON.stringify(r.name)},"categoryId":${r.categoryId},"status":"${r.status}"}`;
}

export function petsJson(rows: readonly PetRow[]): string {
  let out = '[';
  for (let i = 0; i < rows.length; i++) out += (i ? ',' : '') + petJson(rows[i]!);
  return out + ']';
}

/**
 * A pool like petstore-router's own: int8 stays text (pg's default), the same connect timeout and
 * default size. The statement timeout is a session setting sent at connect (PostgreSQL enforces
 * it); petstore-router's is a client-side deadline that also holds behind a pooler and costs it a
 * timer per query, so the baselines do slightly less work here.
 */
export function createPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, connectionTimeoutMillis: 5_000, statement_timeout: 10_000 });
  pool.on('error', () => {});
  return pool;
}

/** Constant-time check of a presented key against digests computed once at start. */
export function createKeyCheck(keys: readonly string[]): (presented: string) => boolean {
  const digests = keys.map((k) => sha256(k));
  return (presented) => {
    const d = sha256(presented);
    let ok = false;
    for (const k of digests) ok = timingSafeEqual(k, d) || ok;
    return ok;
  };
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** `Bearer <token>`, token as petstore-router accepts it. */
export const CREDENTIALS = /^bearer +([\x21-\x2b\x2d-\x7e]+)$/i;

/** Opaque keyset cursor, same format as petstore-router's. */
export function encodeCursor(status: string, afterId: string): string {
  return Buffer.from(`pets:${status}:${afterId}`).toString('base64url');
}

const DECODED = /^pets:([a-z]*):(-?[0-9]{1,20})$/;
/** The id after which the page starts, or undefined when the cursor is not ours or not for `status`. */
export function decodeCursor(cursor: string, status: string): string | undefined {
  if (cursor.length > 128 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const m = DECODED.exec(Buffer.from(cursor, 'base64url').toString());
  return m && m[1] === status && isInt64(m[2]!) ? m[2] : undefined;
}

const CANONICAL_INT = /^-?(?:0|[1-9][0-9]*)$/;
export function isInt64(text: string): boolean {
  if (text.length > 20 || !CANONICAL_INT.test(text)) return false;
  const n = BigInt(text);
  return n >= -(2n ** 63n) && n < 2n ** 63n;
}

/** Name rules: 1 to 255 code points, not blank, no U+0000 or lone surrogate. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export function nameProblem(name: string): string | undefined {
  const length = [...name].length;
  if (length < 1 || length > 255) return 'must be 1 to 255 characters';
  if (name.trim() === '') return 'must not be blank';
  if (name.includes('\u0000') || LONE_SURROGATE.test(name)) return 'must not contain U+0000 or unpaired surrogates';
  return undefined;
}

export const DEPRECATION_HEADERS = {
  deprecation: '@1795219200',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
} as const;

/** `--database URL --port N --host H`, or DATABASE_URL / PORT; keys from PETSTORE_API_KEYS. */
export function serverArgs(argv = process.argv.slice(2)) {
  const flag = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const database = flag('database') ?? process.env.DATABASE_URL;
  if (!database) throw new Error('--database URL (or DATABASE_URL) is required');
  const keys = (process.env.PETSTORE_API_KEYS ?? '').split(',').filter(Boolean);
  if (keys.length === 0) throw new Error('PETSTORE_API_KEYS is required');
  return { database, keys, port: Number(flag('port') ?? process.env.PORT ?? 8080), host: flag('host') ?? '127.0.0.1' };
}

export interface ErrorBody {
  code: string;
  message: string;
  status: number;
  details?: { path: string; message: string }[];
}
export function errorJson(status: number, code: string, message: string, details?: ErrorBody['details']): string {
  const body: ErrorBody = { code, message, status };
  if (details) body.details = details;
  return JSON.stringify(body);
}

/** The request's id by the store's own rule: its `X-Request-Id` when valid, else a new random UUID. */
export function requestIdOf(given: string | string[] | undefined): string {
  return requestIdFromHeader(typeof given === 'string' ? given : undefined);
}

/** How a tagged GET answer may be cached, as petstore-router sends it. */
export const CACHE_CONTROL = 'private, no-cache';

/**
 * The validator of a GET's 200 answer (its body and `Link` header, as petstore-router tags them)
 * and whether the request's `If-None-Match` matches it (then the answer is a 304).
 */
export function validator(body: string, link: string | undefined, ifNoneMatch: string | undefined): { etag: string; notModified: boolean } {
  const etag = entityTag(link ?? null, body);
  return { etag, notModified: ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, etag) };
}
