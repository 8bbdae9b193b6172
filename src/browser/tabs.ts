// One browser store per origin and idb:// directory, shared by every tab: the handles of the
// directory elect a leader with a Web Lock; the leader alone opens PGlite on the directory and runs
// the others' statements, sent on a BroadcastChannel. When the leader goes, the lock passes to the
// next handle in line, which opens the directory from IndexedDB (every answered write is there) and
// announces itself. docs/decisions.md, "Tabs".
import type { PGliteInstance as PGlite } from '../drivers/pglite/database.js';
import { followerOperations } from './follower.js';
import { handleLock, serveOperations } from './leader.js';
import type { Message } from './messages.js';
import { type DirectoryDatabase, closedError, onPageHide } from './directory.js';
import { checkpointWhenQuiet } from './quiet-checkpoint.js';

interface Leadership {
  pglite: PGlite;
  epoch: string;
  serving: ReturnType<typeof serveOperations>;
  quiet: ReturnType<typeof checkpointWhenQuiet>;
  stopping: boolean;
  release(): void;
}

/** Whether this browser can share a directory between tabs (Web Locks and BroadcastChannel). */
export function canShare(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.locks?.request === 'function' && typeof BroadcastChannel === 'function';
}

/** A handle on the directory shared by every tab; `open` starts (and migrates) its PGlite when this handle leads. */
export async function shareDirectory(dataDir: string, open: () => Promise<PGlite>): Promise<DirectoryDatabase> {
  const self = crypto.randomUUID();
  const name = `petstore-router:${dataDir}`;
  const channel = new BroadcastChannel(name);
  const follower = followerOperations(self, post);
  const local = new Set<Promise<unknown>>(); // this handle's own statements on its PGlite
  let leading: Leadership | undefined;
  let election = new AbortController();
  let broken: Error | undefined;
  let closed = false;
  let announced!: () => void;
  let failed!: (error: unknown) => void;
  const joined = new Promise<void>((resolve, reject) => ((announced = resolve), (failed = reject)));

  function post(message: Message): void {
    channel.postMessage(message);
    deliver(message); // a channel does not hear itself: this handle's own leader and follower do here
  }
  function deliver(message: Message): void {
    if (message.type === 'hello' && leading && !leading.stopping) post({ type: 'leader', epoch: leading.epoch });
    if (message.type === 'leader') {
      follower.toLeader(message.epoch);
      announced();
    }
    leading?.serving.receive(message);
    follower.receive(message);
  }
  channel.onmessage = (event: MessageEvent<Message>) => deliver(event.data);

  async function lead(): Promise<void> {
    let pglite: PGlite;
    try {
      pglite = await open();
    } catch (error) {
      broken = error instanceof Error ? error : new Error(String(error));
      follower.abandon(broken);
      failed(error);
      return; // the lock passes on
    }
    const epoch = crypto.randomUUID();
    await new Promise<void>((release) => {
      const quiet = checkpointWhenQuiet(pglite);
      const serving = serveOperations(pglite, epoch, post, (sql) => quiet.after(sql));
      leading = { pglite, epoch, serving, quiet, stopping: false, release };
      post({ type: 'leader', epoch });
    });
  }
  function stand(): void {
    election = new AbortController();
    navigator.locks.request(name, { signal: election.signal }, lead).catch(() => {}); // AbortError when withdrawn
  }
  /** Leaves the election; a leader first ends what it started, closes its PGlite (a clean stop) and lets the lock go. */
  async function stepDown(): Promise<void> {
    election.abort();
    const current = leading;
    if (!current) return;
    current.stopping = true;
    await current.serving.stop();
    while (local.size > 0) await Promise.allSettled([...local]);
    current.quiet.stop(); // closing PGlite checkpoints
    leading = undefined;
    follower.toLeader(undefined);
    try {
      await current.pglite.close();
    } finally {
      current.release();
    }
  }
  function direct<T>(run: (pglite: PGlite) => Promise<T>, sql?: string): Promise<T> | undefined {
    if (!leading || leading.stopping) return undefined;
    const { pglite, quiet } = leading;
    const task = run(pglite);
    local.add(task);
    void task
      .finally(() => {
        local.delete(task);
        quiet.after(sql);
      })
      .catch(() => {});
    return task;
  }
  function check(): void {
    if (closed) throw closedError();
    if (broken !== undefined) throw broken;
  }

  // Held for this handle's life: a leader running its transaction rolls it back once it is free.
  let releaseHandle!: () => void;
  await new Promise<void>((granted) => {
    void navigator.locks.request(handleLock(self), () => (granted(), new Promise<void>((r) => (releaseHandle = r))));
  });
  stand();
  post({ type: 'hello' });
  let resumed: Promise<void> = Promise.resolve();
  const stopWatching = onPageHide(
    () => {
      resumed = stepDown();
    },
    () => void resumed.then(() => (stand(), post({ type: 'hello' }))),
  );
  try {
    await joined;
  } catch (error) {
    stopWatching();
    channel.close();
    releaseHandle();
    throw error;
  }

  const database: DirectoryDatabase = {
    get closed() {
      return closed;
    },
    ready: true,
    waitReady: Promise.resolve(),
    async query<T>(sql: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) {
      check();
      const mine = direct((pglite) => pglite.query<T>(sql, params, options), sql);
      if (mine) return mine;
      return follower.send({ kind: 'query', sql, params: params ?? [] }) as never;
    },
    async transaction(fn) {
      check();
      const mine = direct((pglite) => pglite.transaction(fn));
      if (mine) return mine;
      const tx = (await follower.send({ kind: 'begin' })) as string;
      const query = (sql: string, params?: unknown[]) => follower.send({ kind: 'query', sql, params: params ?? [], tx });
      try {
        const result = await fn({ query } as never);
        await follower.send({ kind: 'end', tx, commit: true });
        return result;
      } catch (error) {
        await follower.send({ kind: 'end', tx, commit: false }).catch(() => {});
        throw error;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      stopWatching();
      await stepDown();
      follower.abandon(closedError());
      channel.close();
      releaseHandle();
    },
  };
  return database;
}
