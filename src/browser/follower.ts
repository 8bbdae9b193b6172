// A handle's side of the operations it sends to the leader of the moment. An operation the leader
// never started is sent again to the next leader; one it started and never answered is failed with
// SQLSTATE 08006 (its outcome is unknown), so a statement is never run twice.
import { type Message, type Operation, errorFrom, leaderLost } from './messages.js';

interface Pending {
  op: Operation;
  started: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Sends operations from handle `self` with `post`, to whichever leader `toLeader` names. */
export function followerOperations(self: string, post: (message: Message) => void) {
  const pending = new Map<number, Pending>();
  let epoch: string | undefined;
  let next = 0;

  function send(op: Operation): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, { op, started: false, resolve, reject });
      if (epoch !== undefined) post({ type: 'op', epoch, from: self, id, op });
    });
  }

  /** A new leader (or none, undefined): what it never started goes to it, what the last one started fails. */
  function toLeader(leader: string | undefined): void {
    if (leader === epoch) return;
    epoch = leader;
    for (const [id, entry] of pending) {
      if (entry.started) {
        pending.delete(id);
        entry.reject(leaderLost());
      } else if (leader !== undefined) post({ type: 'op', epoch: leader, from: self, id, op: entry.op });
    }
  }

  function receive(message: Message): void {
    if ((message.type !== 'started' && message.type !== 'done') || message.to !== self) return;
    const entry = pending.get(message.id);
    if (!entry) return;
    if (message.type === 'started') entry.started = true;
    else {
      pending.delete(message.id);
      if (message.error) entry.reject(errorFrom(message.error));
      else entry.resolve(message.result);
    }
  }

  /** Fails every operation still waiting (the handle closed). */
  function abandon(error: Error): void {
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  }

  return {
    send,
    toLeader,
    receive,
    abandon,
    get leader() {
      return epoch;
    },
  };
}
