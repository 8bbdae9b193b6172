import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postgresTest } from '../helpers/postgres-test.js';
import { type Seen, assertHealthy, clientLoop, count, keepDripping, newSeen, probeHealth, runLoad } from './helpers/clients.js';
import { sleep } from './helpers/load.js';
import { onFreshDatabase } from './helpers/postgres.js';
import { KEY, startServer, stopGracefully } from './helpers/server.js';

// Issue 36, as an attacker and an unlucky operator would try it, against `serve` on PostgreSQL.
// Rates are compared within one run (the machine's load moves both sides); no timing bound but the
// ones the issue asks for (each slow request ended within 10 s, health within 1 s).

const KEY_B = `${KEY}-polite`;
const createBody = (name: string) => () => JSON.stringify({ name: `${name}-${Math.random().toString(36).slice(2)}`, categoryId: 1 });

postgresTest(
  test,
  'slow bodies: 40 connections dripping a create at 1 byte/s; 32 honest clients keep >= 80% of their rate; each drip ends with 408 within 10 s',
  async (url) => {
    await onFreshDatabase(url, 'slowbody', async (db) => {
      const server = await startServer(['--database', db]);
      const origin = new URL(server.url);
      const health = probeHealth(server.url);
      try {
        const honest = { url: `${server.url}/pets`, method: 'POST', clients: 32, name: 'honest' };
        await runLoad([{ ...honest, seconds: 1 }]); // warm up
        const [before] = await runLoad([{ ...honest, seconds: 3 }]);
        let dripping = true;
        const { drips, done } = keepDripping(origin, KEY, () => !dripping);
        await sleep(500);
        const [during] = await runLoad([{ ...honest, seconds: 8 }]);
        dripping = false;
        await done;
        const rate = (s: Seen) => count(s, 201);
        const ratio = rate(during!) / 8 / (rate(before!) / 3);
        assert.ok(
          ratio >= 0.8,
          `honest creates per second with the drips: ${ratio.toFixed(2)}x of before (${rate(during!)} in 8 s, ${rate(before!)} in 3 s)`,
        );
        const ended = await Promise.all(drips.slice(0, 40));
        for (const drip of ended) {
          assert.ok(drip.closedAfterMs < 10_000, `a drip was dropped after ${Math.round(drip.closedAfterMs)} ms`);
          assert.match(drip.answer, /^HTTP\/1\.1 408 /);
          assert.match(drip.answer, /connection: close/i);
          assert.match(drip.answer, /"code":"request_timeout"/);
        }
      } finally {
        assertHealthy(await health.stop());
        await stopGracefully(server);
      }
    });
  },
);

postgresTest(
  test,
  'fairness: 60 clients retrying 503s at once and a polite client of another key for 40 s; Retry-After falls back after a spike; creates >= 0.8x',
  async (url) => {
    await onFreshDatabase(url, 'fairness', async (db) => {
      // A small bound, so 60 clients are well past it and its queue: the greedy ones are refused all along.
      const server = await startServer(['--database', db, '--max-in-flight', '12'], { keys: `${KEY},${KEY_B}` });
      const health = probeHealth(server.url);
      try {
        const create = { url: `${server.url}/pets`, method: 'POST' };
        await runLoad([{ ...create, clients: 20, seconds: 1 }]);
        // The same crowd honouring Retry-After: the throughput to compare with, before, between the two
        // halves of the greedy run and after it (their median: the shared machine's load moves).
        const honour = async () => count((await runLoad([{ ...create, clients: 60, seconds: 8 }]))[0]!, 201) / 8;
        const honouring = [await honour()];
        const served = (s: Seen) => count(s, 201);
        let greedyServed = 0;
        let greedyRefused = 0;
        let politeServed = 0;
        const politeRetryAfters: number[] = [];
        for (const half of [1, 2]) {
          const [greedy, polite] = await runLoad([
            { ...create, clients: 60, seconds: 20, on503: 'at-once' },
            { ...create, clients: 1, seconds: 20, key: KEY_B, name: 'polite' },
          ]);
          greedyServed += served(greedy!) + served(polite!);
          greedyRefused += count(greedy!, 503);
          politeServed += served(polite!);
          politeRetryAfters.push(...polite!.retryAfters);
          if (half === 1) honouring.push(await honour());
        }
        assert.ok(politeServed >= 30, `the polite client completed ${politeServed} creates in 40 s`);
        assert.ok(
          politeRetryAfters.every((s) => s <= 5),
          `Retry-After given to the polite client: ${politeRetryAfters.join(',')}`,
        );
        assert.ok(greedyRefused > 0, 'the greedy clients were refused (the test is not vacuous)');

        // Retry-After falls back: after the spike above and 10 s of quiet, the next refusal says <= 2 s.
        await sleep(10_000);
        const burst = newSeen();
        const burstEnd = performance.now() + 1_500;
        await Promise.all(
          Array.from({ length: 80 }, () =>
            clientLoop({
              ...create,
              body: createBody('burst'),
              seen: burst,
              on503: 'at-once',
              until: () => performance.now() >= burstEnd || burst.retryAfters.length > 0,
            }),
          ),
        );
        assert.ok(burst.retryAfters.length > 0, 'the burst was refused');
        assert.ok(burst.retryAfters[0]! <= 2, `the first refusal after quiet said Retry-After ${burst.retryAfters[0]}`);

        // Total throughput holds: refusals given at once are held 100 ms (shed.ts); without that, 0.45-0.66x.
        honouring.push(await honour());
        const rate = greedyServed / 40;
        const figures = `${rate.toFixed(0)}/s with the greedy retries; ${honouring.map((r) => r.toFixed(0)).join(', ')}/s honouring Retry-After`;
        const ratio = rate / [...honouring].sort((a, b) => a - b)[1]!;
        console.log(`  creates: ${ratio.toFixed(2)}x (${figures})`);
        assert.ok(
          ratio >= 0.8,
          `creates with the greedy retries: ${ratio.toFixed(2)}x of the median run honouring Retry-After (${figures})`,
        );
      } finally {
        assertHealthy(await health.stop());
        await stopGracefully(server);
      }
    });
  },
);

test.run();
