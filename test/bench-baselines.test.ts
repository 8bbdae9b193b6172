// The benchmark's baselines serve the API's operating and caching rules as the store does (so the
// bench compares servers doing the same work): X-Request-Id on every answer (a valid one echoed),
// and on a GET's 200 an ETag equal to the store's for the same answer, Cache-Control, and a 304
// for a matching If-None-Match. Run on PostgreSQL, each baseline as its own process.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresDatabase } from '../src/pg.js';
import { entityTag } from '../src/http/entity-tag.js';
import { createPetStore } from '../src/index.js';
import { postgresSuite } from './helpers/postgres-test.js';

const KEY = 'baseline-key-0123456789';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const root = join(import.meta.dirname, '..');

async function startBaseline(name: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, `test/bench/baselines/${name}.ts`), '--database', process.env.DATABASE_URL!, '--port', String(port)],
    {
      cwd: root,
      env: { ...process.env, PETSTORE_API_KEYS: KEY },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const deadline = Date.now() + 30_000;
  while (!out.includes('listening on')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${name} did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return child;
}

for (const [name, port] of [
  ['node-pg', 18_901],
  ['fastify-pg', 18_902],
] as const) {
  const test = postgresSuite(suite<{ child: ChildProcess }>(`bench baseline ${name}`, { child: undefined as never }));
  const origin = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${KEY}` };

  test.before(async (context) => {
    await (await createPostgresDatabase(process.env.DATABASE_URL!)).destroy(); // migrated
    context.child = await startBaseline(name, port);
  });
  test.after(async ({ child }) => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  });

  test('every answer carries an X-Request-Id: a valid one echoed, else a new UUID', async () => {
    const created = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":7}',
    });
    assert.is(created.status, 201);
    assert.match(created.headers.get('x-request-id') ?? '', UUID);
    const echoed = await fetch(`${origin}/v1/pets?limit=2`, { headers: { ...auth, 'x-request-id': 'req-42:a.b' } });
    assert.is(echoed.headers.get('x-request-id'), 'req-42:a.b');
    const refused = await fetch(`${origin}/v1/pets?limit=2`, { headers: { ...auth, 'x-request-id': 'bad id' } });
    assert.match(refused.headers.get('x-request-id') ?? '', UUID);
    const unauthorized = await fetch(`${origin}/v1/pets`);
    assert.is(unauthorized.status, 401);
    assert.match(unauthorized.headers.get('x-request-id') ?? '', UUID);
  });

  test("a GET's 200 is tagged as the store tags it, and a matching If-None-Match gets a 304", async () => {
    const db = await createPostgresDatabase(process.env.DATABASE_URL!);
    try {
      const store = createPetStore({ db, keys: [KEY] });
      for (const path of ['/v1/pets?limit=2', '/v1/pets?status=pending&limit=100', '/v1/pets/1']) {
        // The store answers the same origin's URL, so its Link is the baseline's.
        const ours = await store.fetch(new Request(`${origin}${path}`, { headers: auth }));
        const theirs = await fetch(`${origin}${path}`, { headers: auth });
        assert.is(theirs.status, ours.status, path);
        if (ours.status !== 200) continue;
        const body = await theirs.text();
        // Fastify's fast-json-stringify rounds int64 text past 2^53 (a documented difference), so
        // the tag is checked against the store's rule over the baseline's own body and Link.
        if (name === 'node-pg') assert.is(body, await ours.text(), path);
        const tag = theirs.headers.get('etag');
        assert.is(tag, entityTag(theirs.headers.get('link'), body), path);
        assert.is(theirs.headers.get('link'), ours.headers.get('link'), path);
        assert.is(theirs.headers.get('cache-control'), 'private, no-cache');
        const again = await fetch(`${origin}${path}`, { headers: { ...auth, 'if-none-match': `W/${tag}` } });
        assert.is(again.status, 304, path);
        assert.is(again.headers.get('etag'), tag);
        assert.match(again.headers.get('x-request-id') ?? '', UUID);
        assert.is(await again.text(), '');
      }
    } finally {
      await db.destroy();
    }
  });

  test.run();
}
