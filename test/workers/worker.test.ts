// The Cloudflare Workers example (examples/cloudflare) under `wrangler dev` (workerd, local
// Hyperdrive) against PostgreSQL: the behavioural suite over HTTP, then many concurrent creates.
// Run by scripts/run-workers.sh (`npm run test:workers`), which starts the Worker and sets WORKER_URL.
import * as assert from 'uvu/assert';
import { suite } from 'uvu';
import { request } from 'node:http';
import { KEY, openStore } from '../helpers/harness.js';
import { resetDatabase, sharedPostgres } from '../helpers/db.js';
import { remoteTransport } from '../helpers/remote-transport.js';
import { body } from '../behaviour/context.js';
import { runBehaviourSuite } from '../behaviour/suite.js';

const workerUrl = process.env.WORKER_URL;
if (!workerUrl) throw new Error('WORKER_URL must point at the Worker (scripts/run-workers.sh starts it)');
const postgres = sharedPostgres();
if (!postgres) throw new Error('DATABASE_URL must name the database the Worker uses');
const transport = remoteTransport(workerUrl);

runBehaviourSuite({
  label: 'cloudflare worker',
  transport,
  getDb: () => postgres,
  // Each of these builds a second store with other options (keys, clock, base path, a broken
  // database, rate limits): the Worker's store is configured once, in its wrangler config.
  fixedStore: {
    skip: [
      'authentication › several keys at once (rotation), plain and sha256:<hex>',
      'authentication › an async verifier receives the key and the request',
      'GET /pets/{petId} › from the sunset instant on: 410 Gone with the Error body and the headers',
      'GET /pets/{petId} › the deprecation date is an option',
      'routing and errors › basePath is an option, the empty string included',
      'routing and errors › an unexpected failure: 500 with a masked message, reported to onError',
      'routing and errors › the database unreachable: 503 with Retry-After, then recovery without a restart',
      'routing and errors › a store on a database that is not running at all: 503',
      'conditional GET › getPet at the sunset: 410 whatever tag the client holds, and no ETag',
      'rate limits › LIMIT answers per window carry the fields; then 429 rate_limited with Retry-After = t; a new window admits again',
      'rate limits › every operation counts, errors included, and carries the fields; getPet keeps its deprecation headers on a 429',
      'rate limits › a 401 is never counted; each key has its own count; the public document is not counted',
      'rate limits › concurrent requests of one key: exactly LIMIT are admitted',
    ],
  },
});

const concurrency = suite('cloudflare worker › concurrency');

concurrency('64 concurrent creates, then a list holds all 64', async () => {
  const db = await postgres;
  await resetDatabase(db);
  const opened = await openStore(transport, db);
  const call = opened.call;
  try {
    const created = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        call('/v1/pets', { method: 'POST', body: JSON.stringify({ name: `pet-${i}`, status: 'available', categoryId: 1 }) }),
      ),
    );
    const statuses = created.map((res) => res.status);
    assert.equal(statuses, Array(64).fill(201), `statuses: ${statuses.join(',')}`);
    const list = await body(await call('/v1/pets?limit=100'));
    assert.equal(list.map((pet: { name: string }) => pet.name).sort(), Array.from({ length: 64 }, (_, i) => `pet-${i}`).sort());
  } finally {
    await opened.close();
  }
});

concurrency('a declared 10 MiB body is answered 413 at once, before the client sends it', async () => {
  // The client waits for the answer before sending more than its first KiB: an unread body must
  // be cancelled, or wrangler dev waits for the rest and nobody answers.
  const { hostname, port } = new URL(workerUrl);
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method: 'POST',
        path: '/v1/pets',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) },
        timeout: 15_000,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      },
    );
    req.on('timeout', () => reject(new Error('no answer within 15 s')));
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.write(Buffer.alloc(1024, 0x20));
  });
  assert.is(status, 413);
});

concurrency.after(async () => (await postgres).destroy());
concurrency.run();
