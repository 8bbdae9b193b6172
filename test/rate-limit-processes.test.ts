import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Server, startServer, stopGracefully } from './reliability/helpers/server.js';

// Decisions, "rate limits": the count is shared by every process on one PostgreSQL database, so
// separate servers and the workers of one server together admit exactly LIMIT per key and window.
const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL && process.env.CI) throw new Error('DATABASE_URL must be set in CI: the PostgreSQL run may not be skipped');

const LIMIT = 100;
const WINDOW = 60;
const CLIENTS_PER_SERVER = 32;
const REQUESTS_PER_CLIENT = 5;

/** Waits, if needed, so the next few seconds lie within one fixed window (windows start at multiples of WINDOW). */
async function awayFromWindowEdge(): Promise<void> {
  const intoWindow = (Date.now() / 1000) % WINDOW;
  if (intoWindow > WINDOW - 20) await new Promise((r) => setTimeout(r, (WINDOW - intoWindow + 1) * 1000));
}

/** `clients` concurrent clients per URL, each sending `REQUESTS_PER_CLIENT` requests in a row; the statuses. */
async function hammer(urls: string[], key: string, clients: number): Promise<number[]> {
  const statuses: number[] = [];
  const client = async (url: string) => {
    for (let i = 0; i < REQUESTS_PER_CLIENT; i++) {
      const res = await fetch(`${url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      statuses.push(res.status);
      if (res.status === 429) assert.ok(Number(res.headers.get('retry-after')) >= 1);
    }
  };
  await Promise.all(urls.flatMap((url) => Array.from({ length: clients }, () => client(url))));
  return statuses;
}

function count(statuses: number[], status: number): number {
  return statuses.filter((s) => s === status).length;
}

if (DATABASE_URL) {
  test('two servers on one PostgreSQL database, 32 clients each, --rate-limit 100/60: exactly 100 admitted per key', async () => {
    const key = `rl-${randomBytes(12).toString('hex')}`;
    const other = `rl-${randomBytes(12).toString('hex')}`;
    const servers: Server[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        servers.push(
          // Load shedding off: 48 clients at once on one process pass its default bound of 40 in
          // flight, and a 503 overloaded is no part of what this test counts.
          await startServer(['--database', DATABASE_URL, '--rate-limit', `${LIMIT}/${WINDOW}`, '--no-docs', '--max-in-flight', '0'], {
            keys: `${key},${other}`,
          }),
        );
      }
      await awayFromWindowEdge();
      const urls = servers.map((s) => s.url);
      const [first, second] = await Promise.all([hammer(urls, key, CLIENTS_PER_SERVER), hammer(urls, other, CLIENTS_PER_SERVER / 2)]);
      assert.is(first.length, 2 * CLIENTS_PER_SERVER * REQUESTS_PER_CLIENT);
      assert.is(count(first, 200), LIMIT);
      assert.is(count(first, 429), first.length - LIMIT);
      assert.is(count(second, 200), LIMIT, 'the other key has its own count');
    } finally {
      for (const server of servers) await stopGracefully(server);
    }
  });

  test('serve --workers 2 --rate-limit 100/60: the workers share the count, exactly 100 admitted', async () => {
    const key = `rl-${randomBytes(12).toString('hex')}`;
    const args = ['--database', DATABASE_URL, '--workers', '2', '--rate-limit', `${LIMIT}/${WINDOW}`, '--no-docs', '--max-in-flight', '0'];
    const server = await startServer(args, {
      keys: key,
    });
    try {
      await awayFromWindowEdge();
      const statuses = await hammer([server.url], key, 2 * CLIENTS_PER_SERVER);
      assert.is(count(statuses, 200), LIMIT);
      assert.is(count(statuses, 429), statuses.length - LIMIT);
    } finally {
      await stopGracefully(server);
    }
  });
} else {
  console.log('rate-limit-processes: DATABASE_URL unset, PostgreSQL run skipped');
}

test.run();
