import type { Replica, WalState } from './replica.js';
import { laterLsn } from './wal-position.js';

/** How long a read waits, while no primary answers, for a standby to replay what it must show. */
const WAIT_MS = 2_000;
/** How often it asks again meanwhile. */
const POLL_MS = 25;

/**
 * A read while no primary answers (a failover): it runs on a standby that has replayed the later
 * of `floor` (the latest primary position this process read: every write answered before its
 * last read, in any process) and the WAL the most advanced reachable standby has received. With
 * synchronous replication every acknowledged write, of any process, was received by the
 * synchronous standby before it was acknowledged, so such a read shows every acknowledged write
 * while that standby answers. A server of the list found promoted (no longer a standby) has every
 * write: the read runs there. Rows, or undefined when no server got there within {@link WAIT_MS}
 * (the caller then fails the read as it would have: 503).
 */
export async function readWithoutPrimary(
  replicas: readonly Replica[],
  floor: string | undefined,
  read: (replica: Replica, lsn: WalState) => Promise<unknown[] | undefined>,
): Promise<unknown[] | undefined> {
  // Every replica, whatever the last probe found: the probe gives no verdict while no primary answers.
  const received = await Promise.all(replicas.map((replica) => replica.received().catch(() => undefined)));
  const promoted = replicas.filter((_, i) => received[i] === 'primary');
  for (const replica of promoted) {
    const rows = await read(replica, 'primary').catch(() => undefined);
    if (rows !== undefined) return rows;
  }
  const positions = received.map((state) => (typeof state === 'object' ? state.lsn : undefined));
  const target = positions.reduce<string | undefined>(laterLsn, floor);
  if (target === undefined) return undefined;
  const order = replicas.filter((_, i) => positions[i] !== undefined);
  for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline;) {
    for (const replica of order) {
      const rows = await read(replica, { lsn: target }).catch(() => undefined);
      if (rows !== undefined) return rows;
    }
    await new Promise<void>((resolve) => setTimeout(resolve, POLL_MS));
  }
  return undefined;
}
