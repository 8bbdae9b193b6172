import cluster from 'node:cluster';
import type { Kysely } from 'kysely';
import type { Database, PetStore, PetStoreOptions } from 'petstore-router';
import type { FetchHandler, Served } from 'petstore-router/node';
import type { ServeCommand } from './args.js';
import { openDatabase } from './database.js';
import { CliError, EXIT_FAILURE, EXIT_OK, describe } from './errors.js';
import { keyFileWarning } from './kept-key.js';
import { withIndex } from './index-page.js';
import { generatedKeyMessage, loadKeys } from './keys.js';
import { lockDataDir } from './lock.js';
import { type Operating, startOperating, startPrimaryMetrics } from './operating.js';
import { exitAfter, nextShutdownSignal } from './signals.js';

/** In-flight requests get this long to finish after SIGTERM/SIGINT. */
const SHUTDOWN_MS = 10_000;
const BASE_PATH = '/v1';

/** The store and HTTP side of the server, loaded while the database opens (openWithHttp). */
interface Http {
  core: typeof import('petstore-router');
  node: typeof import('petstore-router/node');
  reload: typeof import('./reload.js');
  docs: ReturnType<typeof import('petstore-router/docs').apiReference> | undefined;
}

/**
 * Opens the database and loads the store and HTTP side at once: `createPGliteDatabase` starts the
 * compile of PGlite's WebAssembly (on V8's background threads) before anything else, and the
 * modules load meanwhile (docs/performance.md, "First store and first start").
 */
async function openWithHttp(command: ServeCommand, migrate?: false): Promise<{ db: Kysely<Database>; http: Http }> {
  // PGlite's entry first, handed to openDatabase so that PGlite's open (the compile of its
  // WebAssembly first) starts before the other modules load: an import issued after theirs waits for them.
  const pglite = command.database === undefined ? await import('petstore-router/pglite').catch(() => undefined) : undefined; // a failure is openDatabase's to report
  const opening = openDatabase(command, migrate, pglite);
  const loading = Promise.all([
    import('petstore-router'),
    import('petstore-router/node'),
    import('./reload.js'),
    command.docs ? import('petstore-router/docs') : undefined,
  ]);
  loading.catch(() => {}); // awaited below, once the database is open
  const db = await opening;
  try {
    const [core, node, reload, docs] = await loading;
    return { db, http: { core, node, reload, docs: docs?.apiReference() } };
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
      http.reload.reloadOnSighup(command.keysFile, (next) => {
        current.store = createStore(db, next, command, operating, http);
        process.stderr.write(http.reload.reloadedLine(next.length, command.keysFile!));
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
    http.reload.receiveKeysFromPrimary((next) => void (current.store = createStore(db, next, command, operating, http)));
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
  const { reloadOnSighup, sendKeysToWorkers } = await import('./reload.js');
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

function createStore(db: PetStoreOptions['db'], keys: string[], command: ServeCommand, operating: Operating, http: Http) {
  try {
    return http.core.createPetStore({
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
