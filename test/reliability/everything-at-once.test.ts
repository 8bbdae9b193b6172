import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postgresTest } from '../helpers/postgres-test.js';
import { type Seen, assertHealthy, count, keepDripping, probeHealth, runLoad } from './helpers/clients.js';
import { onFreshDatabase } from './helpers/postgres.js';
import { MAX_BATCH } from '../../src/storage/pet-inserts.js';
import { holdNextRound, namesStoredTwice } from './helpers/row-lock.js';
import { KEY, startServer, stopGracefully } from './helpers/server.js';

// Issue 36, where the mechanisms meet: a stuck statement (batched creates), slow bodies (the body
// phase), greedy retries (shedding and fairness) and a client that honours Retry-After, all at
// once against `serve` on PostgreSQL with its default shedding. Each was tested alone
// (stuck-statement, adversity); together they share the same 40 slots and the same pool. The
// honest user's view: no second without answers, no name stored twice, health always up.

const KEY_POLITE = `${KEY}-polite`;
// Twice as many honest create clients as one statement holds (MAX_BATCH, 16): clients answered
// together send together, so one stuck statement can hold 16 of them; with only 16 it held 13 in
// CI and the rest were too few to make 0.2x. "Answered every second" is about the others.
const HONEST = 2 * MAX_BATCH;
const KEY_GREEDY = `${KEY}-greedy`;
const RUN_S = 18;
/** The adversity: whole seconds [FROM, FROM + FOR) of the honest clients' run. */
const FROM_S = 6;
const FOR_S = 8;

/** Answers counted in whole seconds [from, to) of a group's run (0 where none came). */
const seconds = (seen: Seen, from: number, to: number) => Array.from({ length: to - from }, (_, i) => seen.perSecond[from + i] ?? 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

postgresTest(
  test,
  'everything at once: a row lock of 8 s on the next round, 40 dripping bodies and 60 greedy retriers of another key; honest creates and lists are answered every second, the polite client is served, no name is stored twice, health stays up',
  async (url) => {
    await onFreshDatabase(url, 'atonce', async (db) => {
      const server = await startServer(['--database', db], { keys: `${KEY},${KEY_POLITE},${KEY_GREEDY}` });
      const origin = new URL(server.url);
      const health = probeHealth(server.url);
      try {
        const create = { url: `${server.url}/pets`, method: 'POST' };
        await runLoad([{ ...create, clients: 20, seconds: 2 }]); // warm up
        const startAt = Date.now() + 5_000; // the load process is up well before
        const adversityAt = startAt + FROM_S * 1_000;
        const { drips, done: dripping } = keepDripping(origin, KEY, () => Date.now() >= adversityAt + FOR_S * 1_000, {
          startAt: adversityAt,
        });
        const [[creates, lists, polite, greedy], lock] = await Promise.all([
          runLoad([
            { ...create, clients: HONEST, seconds: RUN_S, startAt, name: 'honest' },
            { url: `${server.url}/pets?limit=20`, clients: 4, seconds: RUN_S, startAt },
            { ...create, clients: 1, seconds: RUN_S, startAt, key: KEY_POLITE, name: 'polite' },
            { ...create, clients: 60, seconds: FOR_S, startAt: adversityAt, key: KEY_GREEDY, name: 'greedy', on503: 'at-once' },
          ]),
          holdNextRound(db, adversityAt, FOR_S),
          dripping,
        ]);
        const during = (seen: Seen) => seconds(seen, FROM_S, FROM_S + FOR_S);
        // The unblocked rate: the median of the whole seconds before the adversity (the first warms up) and after it.
        const unblocked = (seen: Seen) => median([...seconds(seen, 1, FROM_S), ...seconds(seen, FROM_S + FOR_S, RUN_S)]);
        console.log(
          `  locked id ${lock.id}; honest creates/s unblocked ${unblocked(creates!)}, during ${during(creates!).join(',')} (503: ${count(creates!, 503)}); ` +
            `lists/s unblocked ${unblocked(lists!)}, during ${during(lists!).join(',')}; polite ${count(polite!, 201)} created, Retry-After ${polite!.retryAfters.join(',')}; ` +
            `greedy ${count(greedy!, 201)} created, ${count(greedy!, 503)} refused`,
        );
        assert.equal(await namesStoredTwice(db), [], 'no name is stored twice after the clients retried their 503s');
        assert.ok(count(greedy!, 503) > 0, 'the greedy clients were refused (the test is not vacuous)');
        for (const [what, seen] of [
          ['honest creates', creates!],
          ['lists', lists!],
        ] as const) {
          for (const [i, n] of during(seen).entries()) {
            assert.ok(n >= 0.2 * unblocked(seen), `${what} in second ${FROM_S + i}: ${n}, unblocked ${unblocked(seen)}/s`);
          }
        }
        assert.ok(count(polite!, 201) >= RUN_S / 2, `the polite client completed ${count(polite!, 201)} creates in ${RUN_S} s`);
        assert.ok(
          polite!.retryAfters.every((s) => s <= 5),
          `Retry-After given to the polite client: ${polite!.retryAfters.join(',')}`,
        );
        assert.is(count(lists!, 503), 0, 'no list of the honest key was refused');
        const ended = await Promise.all(drips.slice(0, 40));
        for (const drip of ended) {
          assert.ok(drip.closedAfterMs < 10_000, `a drip was dropped after ${Math.round(drip.closedAfterMs)} ms`);
          assert.match(drip.answer, /^HTTP\/1\.1 408 /);
        }
        await Promise.all(drips);
      } finally {
        assertHealthy(await health.stop());
        await stopGracefully(server);
      }
    });
  },
);

test.run();
