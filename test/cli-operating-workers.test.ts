import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { logLines, sample, scrape, until } from './helpers/observe.js';
import { send } from './reliability/helpers/load.js';
import { postgresTest } from './helpers/postgres-test.js';
import { onFreshDatabase } from './reliability/helpers/postgres.js';
import { assertNoKeyInLogs, startServer, stopGracefully } from './reliability/helpers/server.js';
import { tempDir } from './helpers/temp-dir.js';

const KEY_A = randomBytes(18).toString('base64url');
const KEY_B = randomBytes(18).toString('base64url');
const keyIdOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 12);
const APP = 'https://app.example';

postgresTest(
  test,
  'serve --access-log --metrics-port --cors-origin --workers 2 on PostgreSQL: log lines of both workers, /metrics adds them up, SIGHUP reaches every worker',
  async (databaseUrl) => {
    await onFreshDatabase(databaseUrl, 'operating', async (url) => {
      const keysFile = join(tempDir('petstore-operating-'), 'keys.txt');
      writeFileSync(keysFile, `${KEY_A}\n`);
      const server = await startServer(
        ['--database', url, '--workers', '2', '--keys-file', keysFile, '--access-log', '--metrics-port', '0', '--cors-origin', APP],
        { keys: null },
      );
      try {
        await until(() => (server.stderr().match(/worker \d+ listening/g) ?? []).length === 2, 'two workers');
        const workers = [...server.stderr().matchAll(/worker (\d+) listening/g)].map((m) => Number(m[1]));
        const metricsUrl = /metrics on (http:\/\/\S+)/.exec(server.stderr())![1]!;

        const created = await send(`${server.url}/pets`, { method: 'POST', body: '{"name":"Rex","categoryId":1}', key: KEY_A });
        assert.is(created.status, 201);
        const id = JSON.parse(created.body).id;
        // Eight keep-alive connections, handed to the workers in turn: both serve some of them.
        const agents = Array.from({ length: 8 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
        const plan: { path: string; key: string; status: number; origin?: string }[] = [];
        for (let i = 0; i < 48; i++) {
          if (i % 4 === 0) plan.push({ path: `/pets/${id}`, key: KEY_A, status: 200 });
          else if (i % 4 === 1) plan.push({ path: '/pets', key: 'not-a-key', status: 401 });
          else plan.push({ path: '/pets?limit=5', key: KEY_A, status: 200, origin: APP });
        }
        const answers = await Promise.all(
          plan.map((p, i) =>
            send(`${server.url}${p.path}`, { key: p.key, agent: agents[i % 8]!, headers: p.origin ? { origin: p.origin } : {} }),
          ),
        );
        for (const [i, a] of answers.entries()) {
          assert.is(a.status, plan[i]!.status, a.body);
          assert.ok(a.headers['x-request-id']);
          assert.is(a.headers['access-control-allow-origin'], plan[i]!.origin, 'CORS headers for the allowed origin only');
        }
        for (const agent of agents) agent.destroy();

        const total = plan.length + 1;
        await until(() => logLines(server.stdout()).length === total, `${total} access log lines`);
        const lines = logLines(server.stdout());
        assert.equal(new Set(lines.map((l) => l.pid)), new Set(workers), 'both workers logged requests');
        const byPid = workers.map((pid) => lines.filter((l) => l.pid === pid).length);
        assert.ok(
          byPid.every((n) => n > 0),
          `lines per worker: ${byPid.join(', ')}`,
        );

        const scraped = await scrape(metricsUrl);
        assert.is(scraped.status, 200);
        const count = (labels: Record<string, string>) => sample(scraped.text, 'http_server_request_duration_seconds_count', labels);
        const logged = (route: string, status: number) =>
          lines.filter((l) => (l.route ?? 'unmatched') === route && l.status === status).length;
        for (const [route, status] of [
          ['/v1/pets/{petId}', 200],
          ['/v1/pets', 401],
          ['/v1/pets', 200],
          ['/v1/pets', 201],
        ] as const) {
          assert.is(count({ http_route: route, http_response_status_code: String(status) }), logged(route, status), `${route} ${status}`);
        }
        assert.is(count({}), total, 'the histogram counts every request of both workers');
        assert.is(sample(scraped.text, 'petstore_deprecated_requests_total', { operation: 'getPet', key_id: keyIdOf(KEY_A) }), 12);
        const rss = sample(scraped.text, 'process_resident_memory_bytes');
        assert.ok(rss > 2 * 20e6, `process metrics summed over both workers: ${rss}`);

        // SIGHUP to the primary: every worker takes the new set.
        writeFileSync(keysFile, `${KEY_B}\n`);
        server.child.kill('SIGHUP');
        await until(() => /in use for new requests \(all 2 workers\)/.test(server.stderr()), 'the reload line');
        const fresh = Array.from({ length: 8 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
        const after = await Promise.all(
          fresh.flatMap((agent) => [send(`${server.url}/pets`, { key: KEY_B, agent }), send(`${server.url}/pets`, { key: KEY_A, agent })]),
        );
        assert.equal(
          after.map((a) => a.status),
          fresh.flatMap(() => [200, 401]),
        );
        for (const agent of fresh) agent.destroy();
        await until(() => logLines(server.stdout()).length === total + 16, 'the lines after the reload');
        const afterLines = logLines(server.stdout()).slice(total);
        assert.equal(
          new Set(afterLines.filter((l) => l.status === 200).map((l) => l.pid)),
          new Set(workers),
          'both workers accept the new key',
        );

        assert.is((await stopGracefully(server)).code, 0);
        assertNoKeyInLogs(server, [KEY_A, KEY_B]);
      } finally {
        server.child.kill('SIGKILL');
      }
    });
  },
);

test.run();
