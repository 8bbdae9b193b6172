// Client loops in a process of their own, at the server's priority: niced, the clients were starved
// in bursts on 2 saturated cores and the rates they saw swung to 0.5x their median from one second
// to the next, which per-second assertions cannot tell from the server's doing (docs/performance.md).
//   node --import tsx load-run.ts '<JSON: { groups: [{ clients, seconds, ...LoopOptions }] }>'
// prints one JSON line: each group's Seen (byStatus as pairs).
import { type LoopOptions, clientLoop, newSeen } from './clients.js';

/** `startAt`: when the group starts (Date.now() ms), so a test can act at a known second of the run. */
type Group = Omit<LoopOptions, 'until' | 'seen' | 'body' | 'onAnswer'> & {
  clients: number;
  seconds: number;
  name?: string;
  startAt?: number;
};

const { groups } = JSON.parse(process.argv[2]!) as { groups: Group[] };
const createBody = (name: string) => () => JSON.stringify({ name: `${name}-${Math.random().toString(36).slice(2)}`, categoryId: 1 });
const results = await Promise.all(
  groups.map(async (group) => {
    if (group.startAt !== undefined) await new Promise((resolve) => setTimeout(resolve, Math.max(0, group.startAt! - Date.now())));
    const seen = newSeen();
    const end = performance.now() + group.seconds * 1_000;
    const body = group.method === 'POST' ? createBody(group.name ?? 'load') : undefined;
    await Promise.all(
      Array.from({ length: group.clients }, () => clientLoop({ ...group, body, seen, until: () => performance.now() >= end })),
    );
    return { ...seen, byStatus: [...seen.byStatus] };
  }),
);
process.stdout.write(`${JSON.stringify(results)}\n`);
