/**
 * The load of the overload suite (overload.ts), run as a process of its own on the load core
 * (`taskset`), so the 2,000 clients never compete with the bench or the server for a core:
 *
 *   node --import tsx test/bench/overload-client.ts ORIGIN CONNECTIONS SECONDS API_KEY
 *
 * prints one JSON line: the run's counts, the 201 latencies and the health probes.
 */
import { Agent, request } from 'node:http';

export interface Run {
  connections: number;
  seconds: number;
  created: number;
  createdMs: number[];
  refused: number;
  /** Answers that were neither a 201 nor a well-formed 503 (status, or error code): [what, count]. */
  wrong: [string, number][];
  health: { status: number; ms: number }[];
  /** The Retry-After values seen, with their counts. */
  retryAfters: [string, number][];
}

const [origin, connectionsText, secondsText, apiKey] = process.argv.slice(2) as [string, string, string, string];

const body = JSON.stringify({ name: 'overload', categoryId: 1 });
const headers = {
  authorization: `Bearer ${apiKey}`,
  'content-type': 'application/json',
  'content-length': String(Buffer.byteLength(body)),
};

function post(origin: string, agent: Agent): Promise<{ status: number; text: string; retryAfter: string | undefined; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${origin}/v1/pets`, { method: 'POST', headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        const retryAfter = res.headers['retry-after'];
        resolve({
          status: res.statusCode!,
          text,
          retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
          ms: performance.now() - started,
        });
      });
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.end(body);
  });
}

function probe(origin: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(`${origin}/v1/health`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - started }));
    });
    req.setTimeout(10_000, () => req.destroy());
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end();
  });
}

async function load(origin: string, connections: number, seconds: number): Promise<Run> {
  const run: Run = { connections, seconds, created: 0, createdMs: [], refused: 0, wrong: [], health: [], retryAfters: [] };
  const retryAfters = new Map<string, number>();
  const wrongs = new Map<string, number>();
  const wrong = (what: string) => wrongs.set(what, (wrongs.get(what) ?? 0) + 1);
  // Connections open over a ramp (one per millisecond) that is not measured: 2,000 connects at
  // once overflow the listen backlog, and the kernel's SYN retries would be counted as latency.
  const rampMs = connections;
  const measureFrom = performance.now() + rampMs;
  const until = measureFrom + seconds * 1000;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, Math.min(ms, until - performance.now()))));
  const IDLE_REUSE_MS = 4_000;
  const client = async (_: unknown, c: number) => {
    await sleep(c);
    let agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while (performance.now() < until) {
        try {
          const a = await post(origin, agent);
          const measured = performance.now() - a.ms >= measureFrom;
          if (a.status === 201) {
            if (measured) {
              run.created++;
              run.createdMs.push(a.ms);
            }
            continue;
          }
          const code = a.status === 503 ? ((JSON.parse(a.text) as { code?: string }).code ?? 'no code') : undefined;
          if (
            a.status !== 503 ||
            !a.retryAfter ||
            !/^\d+$/.test(a.retryAfter) ||
            (code !== 'overloaded' && code !== 'service_unavailable')
          ) {
            wrong(`${a.status} ${code ?? ''} retry-after=${a.retryAfter}`);
            await sleep(100);
            continue;
          }
          if (measured) run.refused++;
          retryAfters.set(a.retryAfter, (retryAfters.get(a.retryAfter) ?? 0) + 1);
          const waitMs = Number(a.retryAfter) * 1000 * (1 + Math.random());
          // A connection left idle about as long as the server keeps one (Node's keepAliveTimeout,
          // 5 s) races its close: the request written as the server closes it is reset. A client
          // that waits that long opens a new connection, as HTTP clients with idle timeouts do.
          if (waitMs >= IDLE_REUSE_MS) {
            agent.destroy();
            agent = new Agent({ keepAlive: true, maxSockets: 1 });
          }
          await sleep(waitMs);
        } catch (error) {
          wrong((error as NodeJS.ErrnoException).code ?? (error as Error).message);
          await sleep(100);
        }
      }
    } finally {
      agent.destroy();
    }
  };
  let probing = true;
  const prober = (async () => {
    await sleep(rampMs);
    while (probing) {
      run.health.push(await probe(origin));
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  await Promise.all(Array.from({ length: connections }, client));
  run.retryAfters = [...retryAfters];
  probing = false;
  await prober;
  run.wrong = [...wrongs];
  return run;
}

process.stdout.write(`${JSON.stringify(await load(origin, Number(connectionsText), Number(secondsText)))}\n`);
