import { Agent, request as httpRequest } from 'node:http';
import * as assert from 'uvu/assert';
import { KEY } from './server.js';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Time from sending to the end of the answer. */
  ms: number;
}

/**
 * One HTTP request with node:http; rejects on a socket error or when no complete answer arrived
 * within `timeoutMs` (the request is destroyed: a hang fails, it never stalls the test).
 */
export function send(
  url: string,
  init: { method?: string; body?: string; headers?: Record<string, string>; agent?: Agent | false; timeoutMs?: number; key?: string } = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${init.key ?? KEY}`, ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const req = httpRequest(url, { method: init.method ?? 'GET', headers, agent: init.agent ?? false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, ms: performance.now() - started }));
    });
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error(`no answer within ${init.timeoutMs} ms`), { code: 'TIMEOUT' })),
      init.timeoutMs ?? 15_000,
    );
    req.once('close', () => clearTimeout(timer));
    req.on('error', (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
    req.end(init.body);
  });
}

export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

export interface LoadResult {
  /** Pets whose POST got a 201 with a body: acknowledged, so they must never be lost. */
  acknowledged: Map<number, Pet>;
  /** Every answer's status (or error code) with its count. */
  outcomes: Map<string, number>;
  /** Answers other than 201 (or socket errors): status or error code, Error code, latency, Retry-After, when it ended (performance.now()). */
  refusals: { status: number | string; code?: string; ms: number; retryAfter?: string; at: number; reusedSocket?: boolean }[];
  /** Latency of every 201. */
  createdMs: number[];
  /** When each 201 ended (performance.now()). */
  createdAt: number[];
}

const STATUSES = ['available', 'pending', 'sold'];

/**
 * Creates pets with `concurrency` clients (each its own keep-alive connection) against the
 * servers in `urls` (round-robin), until `total` were attempted or `stop()` says so. Never
 * throws: every outcome is counted, every 201 recorded with what was sent.
 */
export async function createPets(options: {
  urls: string[];
  concurrency: number;
  total?: number;
  stop?: () => boolean;
  timeoutMs?: number;
  label?: string;
}): Promise<LoadResult> {
  const result: LoadResult = { acknowledged: new Map(), outcomes: new Map(), refusals: [], createdMs: [], createdAt: [] };
  let attempted = 0;
  const count = (key: string) => result.outcomes.set(key, (result.outcomes.get(key) ?? 0) + 1);
  const client = async (c: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while ((options.total === undefined || attempted < options.total) && !options.stop?.()) {
        const n = attempted++;
        const url = options.urls[n % options.urls.length]!;
        const sent = { name: `${options.label ?? 'pet'}-${c}-${n}`, categoryId: n, status: STATUSES[n % 3]! };
        try {
          const a = await send(`${url}/pets`, { method: 'POST', body: JSON.stringify(sent), agent, timeoutMs: options.timeoutMs });
          count(String(a.status));
          if (a.status === 201 && a.body !== '') {
            const pet = JSON.parse(a.body) as Pet;
            assert.equal({ name: pet.name, categoryId: pet.categoryId, status: pet.status }, sent, 'the 201 describes what was sent');
            result.acknowledged.set(pet.id, pet);
            result.createdMs.push(a.ms);
            result.createdAt.push(performance.now());
          } else {
            const retryAfter = a.headers['retry-after'];
            let code: string | undefined;
            try {
              code = (JSON.parse(a.body) as { code?: string }).code;
            } catch {
              code = undefined;
            }
            result.refusals.push({
              status: a.status,
              ms: a.ms,
              at: performance.now(),
              ...(code ? { code } : {}),
              ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
            });
            await new Promise((r) => setTimeout(r, 20)); // a short pause, not the full Retry-After: keep probing
          }
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
          count(code);
          result.refusals.push({
            status: code,
            ms: 0,
            at: performance.now(),
            reusedSocket: (error as { reusedSocket?: boolean }).reusedSocket === true,
          });
          await new Promise((r) => setTimeout(r, 20)); // a refused connection fails at once: do not spin
        }
      }
    } finally {
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, c) => client(c)));
  return result;
}

/** Every pet, following `Link: <...>; rel="next"` from `GET /pets?limit=100` to the last page. */
export async function listAll(url: string): Promise<Pet[]> {
  const pets: Pet[] = [];
  const agent = new Agent({ keepAlive: true });
  try {
    let next: string | undefined = `${url}/pets?limit=100`;
    for (let pages = 0; next; pages++) {
      assert.ok(pages < 10_000, 'pagination ends');
      const a = await send(next, { agent });
      assert.is(a.status, 200, a.body);
      pets.push(...(JSON.parse(a.body) as Pet[]));
      const link = a.headers.link;
      next = typeof link === 'string' ? /<([^>]+)>;\s*rel="next"/.exec(link)?.[1] : undefined;
    }
  } finally {
    agent.destroy();
  }
  return pets;
}

/**
 * The listing holds each id once, and every acknowledged pet exactly once, unchanged. Returns
 * how many listed pets were not acknowledged (created, but the client never got the 201).
 */
export function assertEveryAcknowledgedListedOnce(acknowledged: Map<number, Pet>, listed: Pet[]): number {
  const byId = new Map<number, Pet>();
  for (const pet of listed) {
    assert.not.ok(byId.has(pet.id), `id ${pet.id} listed twice`);
    byId.set(pet.id, pet);
  }
  for (const [id, pet] of acknowledged) {
    const found = byId.get(id);
    assert.ok(found, `acknowledged pet ${id} (${pet.name}) is missing`);
    assert.equal(found, pet, `acknowledged pet ${id} changed`);
  }
  return listed.length - acknowledged.size;
}

/** Rejects when `promise` has not settled within `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
