/**
 * Our server with fast paths switched off, for the fast-path table of docs/performance.md: the
 * standalone server's setup (`createPostgresDatabase`, `createResponse: nodeResponse`, `serve`)
 * with each path named in `--off a,b` replaced by its plain form. Same command line as the CLI's
 * `serve`; the bench starts one per name in BENCH_FAST_PATHS_OFF (servers.ts).
 *
 * - `node-response`: the store builds standard Responses (no `createResponse`); the bridge reads
 *   each body back through the platform Response.
 * - `lazy-request`: the store gets a platform Request built from the bridge's lazy one (URL,
 *   headers and body stream copied), as an eager bridge would hand it.
 * - `prepared`: the database is Kysely on a `pg.Pool` of the bench's own (no statement runner:
 *   statements unnamed, rows as objects, through Kysely's executor; and so no `batched-creates`
 *   either, which needs the runner: on create this server is without both).
 * - `batched-writes`: every answer is written as soon as it is ready (`batchWrites: false`), not
 *   with the others of its event-loop turn.
 * - `batched-creates`: one insert statement per create (`batchCreates: false`), not the creates
 *   that wait for a running insert sent together.
 * - `statement-deadlines`: the pool's statement timeout (5 s) is pg's own `query_timeout` (a timer
 *   per query) instead of the driver's one timer per pool (src/drivers/pg/timeout.ts).
 * - `session-bound`: PostgreSQL's bound on a create is a `SET LOCAL` sent with each create
 *   (`sessionStatementTimeout: false`), not the session's setting made at connect.
 */
import pg from 'pg';
import { createPetStore } from 'petstore-router';
import { nodeResponse, serve } from 'petstore-router/node';
import { createPostgresDatabase } from 'petstore-router/pg';

export const FAST_PATHS = [
  'node-response',
  'lazy-request',
  'batched-writes',
  'batched-creates',
  'prepared',
  'statement-deadlines',
  'session-bound',
] as const;

const argv = process.argv.slice(2);
const flag = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const off = new Set((flag('off') ?? '').split(',').filter(Boolean));
for (const name of off) if (!(FAST_PATHS as readonly string[]).includes(name)) throw new Error(`unknown fast path ${name}`);
const url = flag('database') ?? process.env.DATABASE_URL!;
const db = off.has('prepared')
  ? await createPostgresDatabase(new pg.Pool({ connectionString: url, max: 10 }))
  : off.has('statement-deadlines')
    ? await createPostgresDatabase({ connectionString: url, statement_timeout: false, query_timeout: 5_000 })
    : await createPostgresDatabase(url, { sessionStatementTimeout: !off.has('session-bound') });
const store = createPetStore({
  db,
  keys: (process.env.PETSTORE_API_KEYS ?? '').split(',').filter(Boolean),
  ...(off.has('node-response') ? {} : { createResponse: nodeResponse }),
  ...(off.has('batched-creates') ? { batchCreates: false } : {}),
});
const eager = (request: Request): Request =>
  new Request(request.url, {
    method: request.method,
    headers: new Headers([...request.headers]),
    body: request.body,
    duplex: 'half',
  } as RequestInit);
const handler = off.has('lazy-request') ? { fetch: (request: Request) => store.fetch(eager(request)) } : store;
const served = await serve(handler, {
  port: Number(flag('port') ?? 8080),
  host: flag('host') ?? '127.0.0.1',
  batchWrites: !off.has('batched-writes'),
});
console.log(`listening on ${served.url}/v1`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => void served.close().then(() => db.destroy().then(() => process.exit(0))));
}
