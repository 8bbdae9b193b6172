// The leader's side of a shared browser store: it runs the operations other handles send on its
// own PGlite, the one PGlite open on the data directory. A handle's transaction holds PGlite's
// transaction lock until that handle commits or rolls back, or its tab goes (its handle lock is
// then free: the transaction is rolled back, so a closed tab never blocks the others).
import type { PGliteInstance as PGlite } from '../drivers/pglite/database.js';
import { type Message, type Operation, errorFields, leaderLost } from './messages.js';

interface Session {
  query: PGlite['query'];
  end(commit: boolean): Promise<void>;
}

const STOP_GRACE_MS = 1000;

/** The Web Lock a handle holds for as long as it lives (the leader waits on it to see it go). */
export const handleLock = (handle: string) => `petstore-router:handle:${handle}`;

/**
 * Serves operations sent to `epoch` on `pglite`, answering on `post` (`ended`: after each, its SQL;
 * none for a transaction's end); `stop()` ends serving once all started ones ended.
 */
export function serveOperations(pglite: PGlite, epoch: string, post: (message: Message) => void, ended: (sql?: string) => void) {
  const sessions = new Map<string, Session>();
  const running = new Set<Promise<void>>();
  let serving = true;

  async function run(from: string, op: Operation): Promise<unknown> {
    if (op.kind === 'begin') return begin(from);
    const session = op.tx === undefined ? undefined : sessions.get(op.tx);
    // A transaction of another leader: rolled back when that leader went.
    if (op.tx !== undefined && !session) throw leaderLost();
    if (op.kind === 'end') {
      sessions.delete(op.tx);
      return session!.end(op.commit);
    }
    const { rows, affectedRows, fields } = await (session ?? pglite).query(op.sql, op.params, { rowMode: 'object' });
    return { rows, affectedRows, fields };
  }

  function begin(from: string): Promise<string> {
    const tx = `${from}:${crypto.randomUUID()}`;
    const gone = new AbortController();
    return new Promise((resolve, reject) => {
      let finish!: (commit: boolean) => void;
      const decided = new Promise<boolean>((r) => (finish = r));
      const done = pglite
        .transaction(async (t) => {
          sessions.set(tx, { query: t.query.bind(t), end: (commit) => (finish(commit), done) });
          resolve(tx);
          if (!(await decided)) throw new RolledBack();
        })
        .catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        })
        .finally(() => {
          sessions.delete(tx);
          gone.abort();
        });
      done.catch(reject);
      // Granted only once the handle's tab is gone (or the transaction ended: aborted then).
      navigator.locks.request(handleLock(from), { signal: gone.signal }, () => finish(false)).catch(() => {});
    });
  }

  function receive(message: Message): void {
    if (message.type !== 'op' || message.epoch !== epoch) return;
    const { from, id, op } = message;
    // Once stopping, only the open transactions go on (to their end); the rest waits for the next leader.
    if (!serving && !(op.kind !== 'begin' && op.tx !== undefined && sessions.has(op.tx))) return;
    post({ type: 'started', to: from, id });
    const task = run(from, op)
      .finally(() => ended(op.kind === 'query' ? op.sql : undefined))
      .then(
        (result) => post({ type: 'done', to: from, id, result }),
        (error: unknown) => post({ type: 'done', to: from, id, error: errorFields(error) }),
      );
    running.add(task);
    void task.finally(() => running.delete(task));
  }

  /** Stops taking new work; open transactions get `STOP_GRACE_MS` to end, then are rolled back. */
  async function stop(): Promise<void> {
    serving = false;
    const deadline = Date.now() + STOP_GRACE_MS;
    while (running.size > 0 || sessions.size > 0) {
      if (Date.now() > deadline) for (const session of sessions.values()) void session.end(false).catch(() => {});
      await Promise.race([Promise.allSettled([...running]), new Promise((r) => setTimeout(r, 20))]);
    }
  }

  return { receive, stop };
}

class RolledBack extends Error {}
