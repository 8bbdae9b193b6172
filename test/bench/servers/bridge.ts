/**
 * A stand-in for the standalone server, used only until `adapters/cli.ts` exists: the plainest
 * correct Node bridge (a full `Request` per request, the `Response` read back in one piece) in
 * front of `createPetStore` on PostgreSQL. Same command line as the CLI's `serve`.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { Readable } from 'node:stream';
import { createPetStore } from 'petstore-router';
import { createPostgresDatabase } from 'petstore-router/pg';

const argv = process.argv.slice(2);
const flag = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const port = Number(flag('port') ?? 8080);
const host = flag('host') ?? '127.0.0.1';
const db = await createPostgresDatabase(flag('database') ?? process.env.DATABASE_URL!);
const store = createPetStore({ db, keys: (process.env.PETSTORE_API_KEYS ?? '').split(',').filter(Boolean) });

/** A plain Request/Response bridge, the baseline the Node adapter is measured against. */
async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : null,
    duplex: 'half',
  } as RequestInit);
  const response = await store.fetch(request);
  const body = Buffer.from(await response.arrayBuffer());
  const out: Record<string, string> = {};
  response.headers.forEach((v, k) => (out[k] = v));
  out['content-length'] = String(body.length);
  res.writeHead(response.status, out);
  res.end(body);
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
server.listen(port, host, () => console.log(`listening on http://${host}:${port}/v1`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => server.close(() => void db.destroy().then(() => process.exit(0))));
}
