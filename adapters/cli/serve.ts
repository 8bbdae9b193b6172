import cluster from 'node:cluster';
import type { Kysely } from 'kysely';
import { type Database, type PetStore, createPetStore } from 'petstore-router';
import type { FetchHandler, Served } from 'petstore-router/node';
import type { ServeCommand } from './args.js';
import { openDatabase } from './database.js';
import { CliError, EXIT_FAILURE, EXIT_OK, describe } from './errors.js';
import { keyFileWarning } from './kept-key.js';
import { withIndex } from './index-page.js';
import { generatedKeyMessage, loadKeys } from './keys.js';
import { lockDataDir } from './lock.js';
import { type Operating, startOperating, startPrimaryMetrics } from './operating.js';
import { receiveKeysFromPrimary, reloadOnSighup, reloadedLine, sendKeysToWorkers } from './reload.js';
import { exitAfter, nextShutdownSignal } from './signals.js';

/** In-flight requests get this long to finish after SIGTERM/SIGINT. */
const SHUTDOWN_MS = 10_000;
const BASE_PATH = '/v1';

/** Long enough for PGlite to reach its first wait (its module and file system loaded, its WebAssembly reading). */
function startingDelay(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 30));
}

/** The HTTP side of the server: `petstore-router/node`, and `/docs`'s page when served. */
interface Http {
  node: typeof import('petstore-router/node');
  docs: ReturnType<typeof import('petstore-router/docs').apiReference> | undefined;
}

/**
 * Opens the database and loads the HTTP side at once: PGlite's start waits on its WebAssembly
 * compile and file reads, and the modules load in those waits (a start on an existing data
 * directory is mostly PGlite's own, docs/performance.md "First store and first start").
 */
async function openWithHttp(command: ServeCommand, migrate?: false): Promise<{ db: Kysely<Database>; http: Http }> {
  const opening = openDatabase(command, migrate);
  // PGlite's start first: the modules then load in its waits instead of delaying it.
  await Promise.race([opening.catch(() => {}), startingDelay()]);
  const loading = Promise.all([import('petstore-router/node'), command.docs ? import('petstore-router/docs') : undefined]);
  loading.catch(() => {}); // awaited below, once the database is open
  const db = await opening;
  try {
    const [node, docs] = await loading;
    return { db, http: { node, docs: docs?.apiReference() } };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/** `serve`: one process, or with `--workers N` a cluster primary (workers run {@link runWorker}). */
export async function runServe(command: ServeCommand): Promise<number> {
  if (cluster.isWorker) return runWorker(command);
  if (command.workers > 1) return runPrimary(command);

  const release = command.database === undefined ? lockDataDir(command.dataDir) : () => {};
  try {
    // After the lock: the directory exists, and no other server is generating its key.
    const { keys, generated, kept } = loadKeys(command.keysFile, process.env, command.database === undefined ? command.dataDir : undefined);
    const { db, http } = await openWithHttp(command);
    try {
      const operating = await startOperating(command, 'single', db);
      const current = swappableStore(createStore(db, keys, command, operating, http));
      // Before the listening line: whoever reads it may send SIGHUP at once.
      reloadOnSighup(command.keysFile, (next) => {
        current.store = createStore(db, next, command, operating, http);
        process.stderr.write(reloadedLine(next.length, command.keysFile!));
      });
      const served = await listen(current, command, http);
      const url = `${served.url}${BASE_PATH}`;
      process.stdout.write(`listening on ${url}\n`);
      if (command.docs) process.stderr.write(docsMessage(url));
      if (generated) process.stderr.write(generatedKeyMessage(keys[0]!, url, kept));
      if (kept) process.stderr.write(keyFileWarning(kept.file) ?? '');
      await nextShutdownSignal();
      operating.drain();
      exitAfter(SHUTDOWN_MS + 5_000, EXIT_FAILURE);
      await served.close();
      await operating.close();
    } finally {
      await db.destroy();
    }
  } finally {
    release();
  }
  return EXIT_OK;
}

/** A cluster worker: same command line, keys passed by the primary, schema already migrated. */
async function runWorker(command: ServeCommand): Promise<number> {
  const { keys } = loadKeys(command.keysFile, process.env);
  const { db, http } = await openWithHttp(command, false);
  try {
    const operating = await startOperating(command, 'worker', db);
    const current = swappableStore(createStore(db, keys, command, operating, http));
    receiveKeysFromPrimary((next) => void (current.store = createStore(db, next, command, operating, http)));
    const served = await listen(current, command, http);
    process.stderr.write(`petstore-router: worker ${process.pid} listening\n`);
    await nextShutdownSignal();
    operating.drain();
    exitAfter(SHUTDOWN_MS + 5_000, EXIT_FAILURE);
    await served.close();
    await operating.close();
  } finally {
    await db.destroy();
  }
  return EXIT_OK;
}

/**
 * The cluster primary: migrates once, forks the workers (they share the port), prints the
 * listening line once all of them listen, forwards SIGTERM/SIGINT and exits when they are done.
 */
async function runPrimary(command: ServeCommand): Promise<number> {
  const { keys, generated } = loadKeys(command.keysFile, process.env);
  await (await openDatabase(command)).destroy(); // reachable and migrated, reported once
  const env = generated ? { PETSTORE_API_KEYS: keys[0]! } : {};
  const metrics = await startPrimaryMetrics(command);
  reloadOnSighup(command.keysFile, (next) => sendKeysToWorkers(next, command.keysFile!));
  const shutdown = nextShutdownSignal();
  let stopping = false;
  let ready = 0;

  return new Promise<number>((resolve) => {
    const stopAll = (code: number) => {
      stopping = true;
      exitAfter(SHUTDOWN_MS + 5_000, EXIT_FAILURE);
      const workers = Object.values(cluster.workers ?? {});
      void metrics.close();
      if (workers.length === 0) return resolve(code);
      for (const worker of workers) worker?.process.kill('SIGTERM');
      cluster.on('exit', () => {
        if (Object.keys(cluster.workers ?? {}).length === 0) resolve(code);
      });
    };
    cluster.on('listening', (_worker, address) => {
      if (++ready !== command.workers) return;
      const url = `http://${command.host.includes(':') ? `[${command.host}]` : command.host}:${address.port}${BASE_PATH}`;
      process.stdout.write(`listening on ${url}\n`);
      if (command.docs) process.stderr.write(docsMessage(url));
      if (generated) process.stderr.write(generatedKeyMessage(keys[0]!, url));
    });
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) return;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (ready < command.workers) {
        process.stderr.write(`petstore-router: worker ${worker.process.pid} exited (${how}) before listening\n`);
        stopAll(EXIT_FAILURE);
        return;
      }
      process.stderr.write(`petstore-router: worker ${worker.process.pid} exited (${how}); starting another\n`);
      ready--;
      cluster.fork(env);
    });
    void shutdown.then(() => stopAll(EXIT_OK));
    for (let i = 0; i < command.workers; i++) cluster.fork(env);
  });
}

/**
 * The handler the server calls: the store in use, replaced whole when the keys are reloaded.
 * A request in flight keeps the store it started on; requests after the swap get the new one.
 */
function swappableStore(store: PetStore): FetchHandler & { store: PetStore } {
  const current: FetchHandler & { store: PetStore } = { store, fetch: (request) => current.store.fetch(request) };
  return current;
}

function createStore(
  db: Parameters<typeof createPetStore>[0]['db'],
  keys: string[],
  command: ServeCommand,
  operating: Operating,
  http: Http,
) {
  try {
    return createPetStore({
      db,
      keys,
      basePath: BASE_PATH,
      createResponse: http.node.nodeResponse,
      rateLimit: command.rateLimit,
      docs: command.docs && http.docs,
      ...operating.storeOptions,
    });
  } catch (error) {
    throw new CliError(`the configured API keys are not valid: ${describe(error)}`);
  }
}

/** Where the API reference page is, for the person who just started the server. */
function docsMessage(url: string): string {
  return `petstore-router: API reference at ${url}/docs\n`;
}

async function listen(store: FetchHandler, command: ServeCommand, http: Http): Promise<Served> {
  try {
    return await http.node.serve(withIndex(store, BASE_PATH, command.docs), {
      port: command.port,
      host: command.host,
      shutdownTimeout: SHUTDOWN_MS,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EADDRINUSE' ? 'the address is already in use' : describe(error);
    throw new CliError(`cannot listen on ${command.host}:${command.port}: ${reason}`);
  }
}
