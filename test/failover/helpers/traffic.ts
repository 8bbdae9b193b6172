import { Agent } from 'node:http';
import { send } from '../../reliability/helpers/load.js';

/** One answer (or socket error) as the failover tests judge it. */
export interface Outcome {
  server: number;
  status: number | string;
  ms: number;
  /** When it ended (Date.now()). */
  at: number;
  body: string;
  retryAfter: string | undefined;
  /** The name a create sent. */
  name?: string;
}

/** Acknowledged creates (201) by pet id, with the name sent. */
export type Acknowledged = Map<number, string>;

/** Runs until `stop()`: calls `once(client)` in a loop on each client, pausing `pauseMs` after an answer other than 2xx. */
export function loop(clients: number, once: (client: number) => Promise<Outcome>, pauseMs = 200) {
  let stopped = false;
  const outcomes: Outcome[] = [];
  const done = Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (!stopped) {
        const outcome = await once(client);
        outcomes.push(outcome);
        if (typeof outcome.status !== 'number' || outcome.status >= 300) await new Promise((r) => setTimeout(r, pauseMs));
      }
    }),
  );
  return {
    outcomes,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

/** One request as an {@link Outcome} (a socket error or no answer in 15 s is the error's code). */
export async function request(
  server: number,
  url: string,
  init: { method?: string; body?: string; agent: Agent; headers?: Record<string, string> },
): Promise<Outcome> {
  const started = performance.now();
  try {
    const a = await send(url, { ...init, timeoutMs: 15_000 });
    const retryAfter = a.headers['retry-after'];
    return {
      server,
      status: a.status,
      ms: a.ms,
      at: Date.now(),
      body: a.body,
      retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
    };
  } catch (error) {
    const code = (error as { code?: string }).code ?? String(error);
    return { server, status: code, ms: performance.now() - started, at: Date.now(), body: '', retryAfter: undefined };
  }
}

let sequence = 0;

/**
 * `clients` clients creating pets with unique names, spread over `urls` (client i on server i mod n),
 * each on a keep-alive connection of its own; every 201 is recorded in `acknowledged`.
 */
export function createLoad(urls: readonly string[], clients: number, label: string) {
  const acknowledged: Acknowledged = new Map();
  const agents = Array.from({ length: clients }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  const load = loop(clients, async (client) => {
    const server = client % urls.length;
    const name = `${label}-${process.pid}-${client}-${sequence++}`;
    const outcome = await request(server, `${urls[server]}/pets`, {
      method: 'POST',
      body: JSON.stringify({ name, categoryId: 1 }),
      agent: agents[client]!,
    });
    if (outcome.status === 201) acknowledged.set((JSON.parse(outcome.body) as { id: number }).id, name);
    return { ...outcome, name };
  });
  return {
    acknowledged,
    outcomes: load.outcomes,
    stop: async () => {
      await load.stop();
      for (const agent of agents) agent.destroy();
    },
  };
}

/** Whether `outcome` is a 503 with an Error body (`code`, `message`, `status` 503) and a Retry-After. */
export function isRetryable503(outcome: Outcome): boolean {
  if (outcome.status !== 503 || outcome.retryAfter === undefined) return false;
  try {
    const body = JSON.parse(outcome.body) as { code?: unknown; message?: unknown; status?: unknown };
    return typeof body.code === 'string' && typeof body.message === 'string' && body.status === 503;
  } catch {
    return false;
  }
}
