import cluster, { type Worker } from 'node:cluster';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { type Database, createPetStore } from 'petstore-router';
import { describe } from './errors.js';
import { loadKeys } from './keys.js';

const KEYS_MESSAGE = 'petstore-router:keys';

/**
 * A Kysely that never connects (Kysely's DummyDriver, its documented way to build queries without
 * a database): createPetStore checks its options, keys included, and reads no database at
 * creation, so it checks a re-read key set here, also in a cluster primary that holds no database.
 */
const CHECK_ONLY_DB = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const APPLIED_MESSAGE = 'petstore-router:keys-applied';

/**
 * The keys file read again, checked as createPetStore checks keys (it reads no database at
 * creation); undefined after one line on stderr when the file is unreadable, empty or holds an
 * invalid key: the keys in use stay. No key, and no part of one, is ever in that line.
 */
export function rereadKeys(keysFile: string): string[] | undefined {
  try {
    const { keys } = loadKeys(keysFile, {});
    createPetStore({ db: CHECK_ONLY_DB, keys, health: false, openapi: false });
    return keys;
  } catch (error) {
    process.stderr.write(`petstore-router: SIGHUP: ${describe(error).replace(/^petstore-router: /, '')}; the keys in use stay\n`);
    return undefined;
  }
}

/**
 * On SIGHUP, re-reads `keysFile` and hands a valid set to `apply`. Installed whatever the keys'
 * source, so a SIGHUP never ends the server (Node's default for it); without --keys-file there is
 * nothing to re-read, and it says so.
 */
export function reloadOnSighup(keysFile: string | undefined, apply: (keys: string[]) => void): void {
  process.on('SIGHUP', () => {
    if (keysFile === undefined) {
      process.stderr.write('petstore-router: SIGHUP: the keys do not come from --keys-file, nothing to re-read\n');
      return;
    }
    const keys = rereadKeys(keysFile);
    if (keys) apply(keys);
  });
}

/** The line that says a reload took effect. */
export function reloadedLine(count: number, keysFile: string, where = ''): string {
  return `petstore-router: SIGHUP: ${count} API key(s) from ${keysFile} in use for new requests${where}\n`;
}

/**
 * The cluster primary's reload: the keys go to every worker over the IPC channel (never through
 * the environment or the command line); the line is printed once all of them applied the set.
 */
export function sendKeysToWorkers(keys: string[], keysFile: string): void {
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected());
  let waiting = workers.length;
  const generation = Date.now() + Math.random();
  const onMessage = (_worker: Worker, message: { type?: string; generation?: number }) => {
    if (message?.type !== APPLIED_MESSAGE || message.generation !== generation) return;
    if (--waiting === 0) {
      cluster.off('message', onMessage);
      process.stderr.write(reloadedLine(keys.length, keysFile, ` (all ${workers.length} workers)`));
    }
  };
  cluster.on('message', onMessage);
  for (const worker of workers) worker.send({ type: KEYS_MESSAGE, keys, generation });
}

/** A worker's side: applies each set the primary sends, then says so. A SIGHUP of its own is the primary's business. */
export function receiveKeysFromPrimary(apply: (keys: string[]) => void): void {
  process.on('SIGHUP', () => {});
  process.on('message', (message: { type?: string; keys?: string[]; generation?: number }) => {
    if (message?.type !== KEYS_MESSAGE || !Array.isArray(message.keys)) return;
    apply(message.keys);
    process.send?.({ type: APPLIED_MESSAGE, generation: message.generation });
  });
}
