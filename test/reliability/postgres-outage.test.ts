import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assertEveryAcknowledgedListedOnce, createPets, listAll, percentile, sleep, within } from './helpers/load.js';
import { freshDatabase } from './helpers/postgres.js';
import { postgresTest } from '../helpers/postgres-test.js';
import { startProxy } from './helpers/proxy.js';
import { assertNoKeyInLogs, startServer, stopGracefully } from './helpers/server.js';

/**
 * PostgreSQL goes away under load, twice, behind a TCP proxy (the cluster itself keeps running
 * for everyone else): first stopped (connections reset, new ones refused), then hanging on
 * connect (accepted, never answered). The standalone server answers 503 + Retry-After quickly,
 * recovers by itself, and loses nothing it acknowledged.
 */
postgresTest(
  test,
  'PostgreSQL outage under load: quick 503s with Retry-After, recovery without a restart, nothing acknowledged lost',
  async (url) => {
    const db = await freshDatabase(url, 'outage');
    const target = new URL(db.url);
    const proxy = await startProxy(target.hostname, Number(target.port || 5432));
    const proxied = new URL(db.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const server = await startServer(['--database', proxied.toString()]);
    try {
      let stop = false;
      const load = createPets({ urls: [server.url], concurrency: 8, stop: () => stop, timeoutMs: 15_000, label: 'outage' });
      const phases: Record<string, number> = {};
      const mark = (name: string) => (phases[name] = performance.now());
      await sleep(1_500);
      mark('cut');
      await proxy.cut();
      await sleep(3_000);
      mark('restored');
      await proxy.restore();
      await sleep(2_000);
      mark('blackhole');
      await proxy.blackhole();
      await sleep(6_500); // longer than the pool's 5 s connect timeout
      mark('restored2');
      await proxy.restore();
      await sleep(2_000);
      stop = true;
      const result = await within(load, 30_000, 'the load');
      mark('end');

      const between = (from: number, to: number) => result.refusals.filter((r) => r.at >= from && r.at < to);
      const stopped = between(phases.cut!, phases.restored!);
      const hanging = between(phases.blackhole!, phases.restored2! + 6_000);
      const firstCreatedAfter = (t: number) => Math.min(...result.createdAt.filter((at) => at > t)) - t;
      const summary = {
        outcomes: Object.fromEntries(result.outcomes),
        acknowledged: result.acknowledged.size,
        stopped503: stopped.length,
        stoppedMaxMs: Math.round(Math.max(0, ...stopped.map((r) => r.ms))),
        hanging503: hanging.length,
        hangingMaxMs: Math.round(Math.max(0, ...hanging.map((r) => r.ms))),
        recoveryMs: Math.round(firstCreatedAfter(phases.restored!)),
        recovery2Ms: Math.round(firstCreatedAfter(phases.restored2!)),
        createdP99Ms: Math.round(percentile(result.createdMs, 99)),
      };
      console.log(`  ${JSON.stringify(summary)}`);
      if (server.child.exitCode !== null) console.log(server.stderr()); // it crashed: say why

      // Every answer was a 201 or a 503 with the Error body and Retry-After; no socket error, no 500.
      assert.equal([...result.outcomes.keys()].sort(), ['201', '503'], JSON.stringify(summary));
      for (const r of result.refusals) {
        assert.is(r.code, 'service_unavailable');
        assert.match(r.retryAfter ?? '', /^[1-9][0-9]*$/, 'Retry-After in seconds');
      }
      // Stopped: answered at once (a reset or refused connection fails fast).
      assert.ok(stopped.length > 0, 'requests were refused while PostgreSQL was stopped');
      assert.ok(summary.stoppedMaxMs < 2_000, `503s took up to ${summary.stoppedMaxMs} ms while stopped`);
      // Hanging on connect: bounded by the pool's connect timeout (5 s), never longer.
      assert.ok(hanging.length > 0, 'requests were refused while PostgreSQL hung');
      assert.ok(summary.hangingMaxMs < 7_000, `503s took up to ${summary.hangingMaxMs} ms while PostgreSQL hung`);
      // Recovered by itself, same process.
      assert.ok(summary.recoveryMs < 3_000, `first 201 ${summary.recoveryMs} ms after the restore`);
      assert.ok(summary.recovery2Ms < 3_000, `first 201 ${summary.recovery2Ms} ms after the second restore`);
      assert.is(server.child.exitCode, null, 'the server kept running');

      const extra = assertEveryAcknowledgedListedOnce(result.acknowledged, await listAll(server.url));
      // A pet committed just before its connection was cut is stored, but its client got a 503.
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
