/**
 * A profiling aid, not a benchmark: the store behind the Node bridge with its statements answered
 * at once by a stub runner the database object carries (src/drivers/contract.ts),
 * so a CPU profile under load shows our code and Node's HTTP work without a database's noise.
 *
 * Bundle it first, as the bench bundles its servers: under tsx every closure created per request
 * also gets its `name` defined (esbuild's keepNames), an `Object.defineProperty` call that shows
 * in a profile and is not in the published build.
 *
 *   npx esbuild test/bench/stub-server.ts --bundle --platform=node --format=esm --packages=external \
 *     --alias:petstore-router=./src/index.ts --outfile=.cache/stub-server.mjs
 *   node --perf-basic-prof .cache/stub-server.mjs [port]   (key: bench-key-0123456789abcdef; then perf record -p PID)
 *   BATCH_WRITES=0 node .cache/stub-server.mjs [port]      (each answer written at once: the bridge's batchWrites off)
 *   wrk -t1 -c32 -d5s -H 'Authorization: Bearer bench-key-0123456789abcdef' -s .cache/bench/wrk/create.lua http://127.0.0.1:19095/v1/pets
 *
 * `perf record -F 5000 -g -p PID` with `--perf-basic-prof` (JavaScript names from /tmp/perf-PID.map)
 * samples the whole process at little cost; V8's `--cpu-prof` works too (the profile is written
 * on SIGINT) but inflates short functions several times over. Figures from it are in
 * docs/performance.md.
 */
import { PostgresDialect } from 'kysely';
import { nodeResponse, serve } from '../../adapters/node.js';
import type { StatementRunner } from '../../src/drivers/contract.js';
import { DriverKysely } from '../../src/drivers/database.js';
import { createPetStore } from '../../src/index.js';

const unreachable = { connect: () => Promise.reject(new Error('the stub server has no database')), end: async () => {} };
let lastId = 1_000;
/** A page of 101 pets, sliced to the rows a page statement reads (its LIMIT). */
const page = Array.from({ length: 101 }, (_, i) => [String(i + 1), `pet-${i}`, '7', 'available']);
const statements: StatementRunner = {
  run: ({ sql }, _parameters, map) => {
    const limit = /limit (\d+)/.exec(sql);
    return Promise.resolve(map(limit ? page.slice(0, Number(limit[1])) : [[String(++lastId), 'Rex', '7', 'pending']]));
  },
};
const db = new DriverKysely<any>({ dialect: new PostgresDialect({ pool: unreachable as never }) }, { statements });
const store = createPetStore({ db, createResponse: nodeResponse, keys: ['bench-key-0123456789abcdef'] });
const served = await serve(store, {
  port: Number(process.argv[2] ?? 19_095),
  host: '127.0.0.1',
  batchWrites: process.env.BATCH_WRITES !== '0',
});
console.log(`listening on ${served.url}`);
process.on('SIGINT', () => process.exit(0));
