import { Agent } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { send, within } from './helpers/load.js';
import { databaseUrl } from '../helpers/postgres-test.js';
import { freshDatabase } from './helpers/postgres.js';
import { assertNoKeyInLogs, startServer, stopGracefully } from './helpers/server.js';

// The standalone server on a plain PgBouncer URL (1.18, transaction mode, default settings: no
// startup parameter but the basic four, no named statements kept per client), as hosted "pooled"
// URLs behave. `.ci/run` starts PgBouncer and sets PGBOUNCER_URL; in CI the test may not be skipped.
const directUrl = databaseUrl();
const pgbouncer = process.env.PGBOUNCER_URL;
if (!pgbouncer && process.env.CI) throw new Error('PGBOUNCER_URL must be set in CI: the PgBouncer reliability test may not be skipped');

const CLIENTS = 32;
const REQUESTS = 60;

/**
 * 32 clients x 60 requests, in turn: a create with a new Idempotency-Key, its replay, a filtered
 * page, and a get of the created pet. Every answer must be the expected one (201, 201 replayed,
 * 200, 200); returns the unexpected ones.
 */
async function mixedLoad(url: string): Promise<string[]> {
  const unexpected: string[] = [];
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      let key = '';
      let body = '';
      let created = '';
      for (let i = 0; i < REQUESTS; i++) {
        const step = i % 4;
        let answer;
        if (step === 0) {
          key = `pooled-${client}-${i}`;
          body = JSON.stringify({ name: key, categoryId: client + 1 });
          answer = await send(`${url}/pets`, { method: 'POST', agent, body, headers: { 'idempotency-key': key } });
          if (answer.status === 201) created = (JSON.parse(answer.body) as { id: string }).id;
        } else if (step === 1) {
          answer = await send(`${url}/pets`, { method: 'POST', agent, body, headers: { 'idempotency-key': key } });
          if (answer.status === 201 && answer.headers['idempotent-replayed'] !== 'true') unexpected.push(`${key}: replay not marked`);
          if (answer.status === 201 && (JSON.parse(answer.body) as { id: string }).id !== created)
            unexpected.push(`${key}: replay has another id`);
        } else if (step === 2) {
          answer = await send(`${url}/pets?limit=${5 + (client % 20)}&status=available`, { agent });
        } else {
          answer = await send(`${url}/pets/${created}`, { agent });
        }
        const expected = step < 2 ? 201 : 200;
        if (answer.status !== expected) unexpected.push(`step ${step}: ${answer.status} ${answer.body.slice(0, 200)}`);
      }
      agent.destroy();
    }),
  );
  return unexpected;
}

const bouncerTest =
  directUrl && pgbouncer ? test : (name: string, _fn?: unknown) => test.skip(`${name} (DATABASE_URL / PGBOUNCER_URL unset)`);

for (const workers of [1, 2]) {
  bouncerTest(
    `PgBouncer, plain URL, ${workers === 1 ? 'one process' : `--workers ${workers}`}: the server starts and 32 clients x 60 mixed requests get no unexpected status`,
    async () => {
      const db = await freshDatabase(directUrl!, `bouncer${workers}`);
      const pooled = new URL(pgbouncer!);
      pooled.pathname = new URL(db.url).pathname;
      const args = ['--database', pooled.toString(), ...(workers > 1 ? ['--workers', String(workers)] : [])];
      const server = await startServer(args);
      try {
        const unexpected = await within(mixedLoad(server.url), 120_000, 'the mixed load');
        assert.equal(unexpected.slice(0, 5), [], `${unexpected.length} unexpected answers`);
        assert.not.match(server.stderr(), /failed|unsupported startup parameter|prepared statement/);
      } finally {
        assert.is((await stopGracefully(server)).code, 0);
        assertNoKeyInLogs(server);
        await db.drop();
      }
    },
  );
}

test.run();
