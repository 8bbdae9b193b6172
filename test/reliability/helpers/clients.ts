import { spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { type Socket, connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import * as assert from 'uvu/assert';
import { type Answer, send, sleep } from './load.js';
import { KEY } from './server.js';

/** What a group of clients saw: answers by status, and the Retry-After values they were given. */
export interface Seen {
  byStatus: Map<number, number>;
  retryAfters: number[];
  /** Answers of the given status per whole second since `started`. */
  perSecond: number[];
  errors: number;
}

export const newSeen = (): Seen => ({ byStatus: new Map(), retryAfters: [], perSecond: [], errors: 0 });
export const count = (seen: Seen, status: number) => seen.byStatus.get(status) ?? 0;

function note(seen: Seen, answer: Answer, started: number, counted: number) {
  seen.byStatus.set(answer.status, (seen.byStatus.get(answer.status) ?? 0) + 1);
  const retryAfter = answer.headers['retry-after'];
  if (answer.status === 503 && typeof retryAfter === 'string') seen.retryAfters.push(Number(retryAfter));
  if (answer.status === counted) {
    const second = Math.floor((performance.now() - started) / 1_000);
    while (seen.perSecond.length <= second) seen.perSecond.push(0);
    seen.perSecond[second]!++;
  }
}

export interface LoopOptions {
  url: string;
  until: () => boolean;
  seen: Seen;
  method?: string;
  body?: () => string;
  key?: string;
  /** The status counted per second. @default 200 (201 for a POST) */
  counted?: number;
  /** After a 503: `retry-after` waits as told; `at-once` sends again at once. @default 'retry-after' */
  on503?: 'retry-after' | 'at-once';
  /** Called with each answer (a retry of a refused create, by name). */
  onAnswer?: (answer: Answer, body: string | undefined) => void;
}

/** One client: one keep-alive connection, one request at a time, until `until()`. */
export async function clientLoop(options: LoopOptions): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const started = performance.now();
  const method = options.method ?? 'GET';
  const counted = options.counted ?? (method === 'POST' ? 201 : 200);
  try {
    let body = options.body?.();
    while (!options.until()) {
      let answer: Answer;
      try {
        answer = await send(options.url, { method, body, agent, key: options.key, timeoutMs: 30_000 });
      } catch {
        options.seen.errors++;
        await sleep(50);
        continue;
      }
      note(options.seen, answer, started, counted);
      options.onAnswer?.(answer, body);
      if (answer.status === 503) {
        // The same request again (same name): a retry, as a client would send it.
        if (options.on503 !== 'at-once') await sleep(Number(answer.headers['retry-after'] ?? 1) * 1_000);
        continue;
      }
      body = options.body?.();
    }
  } finally {
    agent.destroy();
  }
}

/**
 * Health probes every `everyMs` on fresh connections (`/v1/health`, `/v1/health/`, HEAD), from a
 * process of their own so the test's client loops never delay them; `stop()` gives each answer's
 * status and time.
 */
export function probeHealth(base: string, everyMs = 250): { stop(): Promise<{ what: string; status: number; ms: number }[]> } {
  const child = spawn(process.execPath, [fileURLToPath(new URL('health-probe.mjs', import.meta.url)), base, String(everyMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      child.stdin.end();
      await exited;
      return JSON.parse(out) as { what: string; status: number; ms: number }[];
    },
  };
}

/** Every health probe (`/v1/health`, `/v1/health/`, HEAD) answered 200 within 1 s. */
export function assertHealthy(probes: { what: string; status: number; ms: number }[]): void {
  assert.ok(probes.length >= 3, 'health was probed');
  const bad = probes.filter((p) => p.status !== 200 || p.ms >= 1_000);
  assert.equal(bad, [], 'every health probe (/v1/health, /v1/health/, HEAD) answered 200 within 1 s');
}

/** A connection that sends a create's headers (`Content-Length: 100`), then its body a byte every second. */
export function dripBody(origin: URL, key: string): Promise<{ answer: string; closedAfterMs: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(origin.port), origin.hostname);
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8').on('data', (c: string) => (answer += c));
    socket.on('error', () => {});
    socket.once('close', () => {
      clearInterval(timer);
      resolve({ answer, closedAfterMs: performance.now() - started });
    });
    socket.once('connect', () => {
      socket.write(
        `POST /v1/pets HTTP/1.1\r\nhost: ${origin.host}\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n`,
      );
      timer = setInterval(() => socket.writable && socket.write(' '), 1_000);
    });
  });
}

/** `count` drips open at all times from `startAt` (Date.now() time) until `until()`: each one the server drops is replaced. */
export function keepDripping(
  origin: URL,
  key: string,
  until: () => boolean,
  { count = 40, startAt = Date.now() }: { count?: number; startAt?: number } = {},
): { drips: Promise<{ answer: string; closedAfterMs: number }>[]; done: Promise<void> } {
  const drips: Promise<{ answer: string; closedAfterMs: number }>[] = [];
  const done = (async () => {
    await sleep(startAt - Date.now());
    const open = new Set<Promise<unknown>>();
    while (!until()) {
      while (open.size < count) {
        const drip = dripBody(origin, key);
        drips.push(drip);
        open.add(drip);
        void drip.then(() => open.delete(drip));
      }
      await sleep(50);
    }
  })();
  return { drips, done };
}

/** `groups` of client loops run at once from a process of their own (load-run.ts), with this process's KEY unless given; what each group saw. */
export async function runLoad(
  groups: (Omit<LoopOptions, 'until' | 'seen' | 'body' | 'onAnswer'> & {
    clients: number;
    seconds: number;
    name?: string;
    startAt?: number;
  })[],
): Promise<Seen[]> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('load-run.ts', import.meta.url)),
      JSON.stringify({ groups: groups.map((group) => ({ key: KEY, ...group })) }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`the load process exited with ${code}`);
  return (JSON.parse(out) as (Omit<Seen, 'byStatus'> & { byStatus: [number, number][] })[]).map((s) => ({
    ...s,
    byStatus: new Map(s.byStatus),
  }));
}
