import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postgresTest } from '../helpers/postgres-test.js';
import { startFreezingProxy } from './helpers/freezing-proxy.js';
import { assertEveryAcknowledgedListedOnce, createPets, listAll, send, sleep, within } from './helpers/load.js';
import { freshDatabase } from './helpers/postgres.js';
import { assertNoKeyInLogs, startServer, stopGracefully } from './helpers/server.js';

/** The partition bound the server runs with (its default), and what the issue allows on top. */
const BOUND_MS = 5_000;
/** A create waits this much longer for PostgreSQL's own answer (SERVER_ANSWER_GRACE_MS), in all, batched or not. */
const CREATE_GRACE_MS = 1_000;
const FREEZE_MS = 9_000;

/**
 * A network partition between the server and PostgreSQL: a TCP proxy stops forwarding in both
 * directions without closing anything, while 16 clients create pets (statements already on the
 * wire, requests waiting for a connection, new connections all hang). Every request is answered
 * within the bound (5 s) plus a margin, with 503 + Retry-After during the freeze; the server
 * discards the stuck connections and serves again within seconds of the thaw; nothing
 * acknowledged is lost.
 */
postgresTest(
  test,
  'network partition (packets dropped, no reset): every request answered within 6 s, 503s while frozen, recovery within 5 s, nothing acknowledged lost',
  async (url) => {
    const db = await freshDatabase(url, 'partition');
    const target = new URL(db.url);
    const proxy = await startFreezingProxy(target.hostname, Number(target.port || 5432));
    const proxied = new URL(db.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const server = await startServer(['--database', proxied.toString()]);
    try {
      let stop = false;
      const load = createPets({ urls: [server.url], concurrency: 16, stop: () => stop, timeoutMs: 20_000, label: 'partition' });
      // Health probes throughout: each answered within its 1 s bound (plus scheduling), 200 or 503.
      const probes: { status: number; ms: number; at: number }[] = [];
      const probing = (async () => {
        while (!stop) {
          const a = await send(`${server.url}/health`, { timeoutMs: 10_000 });
          probes.push({ status: a.status, ms: a.ms, at: performance.now() });
          await sleep(250);
        }
      })();
      await sleep(2_000);
      const frozeAt = performance.now();
      proxy.freeze();
      await sleep(FREEZE_MS);
      const thawedAt = performance.now();
      proxy.thaw();
      await sleep(6_000);
      stop = true;
      const result = await within(load, 30_000, 'the load');
      await probing;

      const during = result.refusals.filter((r) => r.at >= frozeAt && r.at < thawedAt + BOUND_MS);
      const firstCreatedAfterThaw = Math.min(...result.createdAt.filter((at) => at > thawedAt)) - thawedAt;
      const slowest = Math.max(...result.createdMs, ...result.refusals.map((r) => r.ms));
      const summary = {
        outcomes: Object.fromEntries(result.outcomes),
        acknowledged: result.acknowledged.size,
        frozen503: during.length,
        slowestMs: Math.round(slowest),
        recoveryMs: Math.round(firstCreatedAfterThaw),
        probes: probes.length,
        slowestProbeMs: Math.round(Math.max(...probes.map((p) => p.ms))),
        probe503: probes.filter((p) => p.status === 503).length,
      };
      console.log(`  ${JSON.stringify(summary)}`);
      if (server.child.exitCode !== null) console.log(server.stderr());

      assert.equal([...result.outcomes.keys()].sort(), ['201', '503'], JSON.stringify(summary));
      for (const r of result.refusals) {
        assert.is(r.code, 'service_unavailable');
        assert.match(r.retryAfter ?? '', /^[1-9][0-9]*$/, 'Retry-After in seconds');
      }
      assert.ok(during.length > 0, 'requests were answered 503 during the freeze');
      assert.ok(
        slowest < BOUND_MS + CREATE_GRACE_MS + 1_000,
        `a request waited ${Math.round(slowest)} ms (bound ${BOUND_MS} ms + the create's ${CREATE_GRACE_MS} ms + 1 s)`,
      );
      assert.ok(firstCreatedAfterThaw < 5_000, `first 201 ${Math.round(firstCreatedAfterThaw)} ms after the thaw`);
      assert.ok(summary.slowestProbeMs < 2_000, `a health probe took ${summary.slowestProbeMs} ms`);
      assert.ok(
        probes.some((p) => p.status === 503 && p.at > frozeAt && p.at < thawedAt),
        'health said fail during the freeze',
      );
      assert.is(probes.at(-1)!.status, 200, 'health passes again after the thaw');
      assert.is(server.child.exitCode, null, 'the server kept running');

      const extra = assertEveryAcknowledgedListedOnce(result.acknowledged, await listAll(server.url));
      // A create whose statement committed just before the freeze may have got a 503 instead of its 201.
      assert.ok(extra >= 0 && extra <= 16, `${extra} pets stored without a 201`);
      const exit = await stopGracefully(server);
      assert.is(exit.code, 0);
      assertNoKeyInLogs(server);
    } finally {
      server.child.kill('SIGKILL');
      await proxy.close();
      await db.drop();
    }
  },
);

test.run();
