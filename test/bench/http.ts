/**
 * Over HTTP on PostgreSQL: our standalone server against the two baselines. Every server runs
 * for the whole suite, pinned to one core, wrk on the other. Per scenario: a warm-up of each
 * server, then rounds in which every server is measured once, in an order that rotates (A B C,
 * B C A, …), so slow drift of a shared machine hits all of them alike. Each figure is the median
 * over rounds; ratios are the median of per-round ratios.
 */
import { config } from './config.js';
import { seedPets, settlePets, withoutAutovacuum } from './db.js';
import { backendCpuBetween, sampleBackends } from './postgres-cpu.js';
import { cpuTimes, peakRss, resetPeakRss } from './proc.js';
import { type RunningServer, compile, serverDefs, start } from './servers.js';
import { fmt, median, percentile, table } from './stats.js';
import { ensureWrk, scenarios, wrk } from './wrk.js';
import type { Kysely } from 'kysely';
import type { Database } from 'petstore-router';
import { createPostgresDatabase } from 'petstore-router/pg';

interface Round {
  rps: number;
  p99: number;
  /** Server CPU microseconds per request (user + system, all threads). */
  cpuUs: number;
  /**
   * The user-mode part: JavaScript, V8 and libuv. The system part is mostly the kernel's socket
   * work (two writes and two reads per request for every server), so this is where servers differ.
   */
  userUs: number;
  /** PostgreSQL's CPU microseconds per request: the benchmark database's backends (postgres-cpu.ts). */
  dbUs: number;
}

export interface HttpResults {
  /** scenario -> server -> rounds */
  rounds: Map<string, Map<string, Round[]>>;
  /** scenario -> server -> peak RSS bytes during the scenario */
  peak: Map<string, Map<string, number>>;
  labels: Map<string, string>;
}

export async function runHttp(log: (s: string) => void): Promise<HttpResults> {
  ensureWrk();
  const db = await createPostgresDatabase(config.databaseUrl); // migrated: the baselines use our schema
  const defs = serverDefs();
  const files = await compile(defs);
  const servers: RunningServer[] = [];
  const results: HttpResults = { rounds: new Map(), peak: new Map(), labels: new Map(defs.map((d) => [d.name, d.label])) };
  try {
    let port = config.port;
    for (const def of defs)
      servers.push(await start(def, files.get(def.name)!, port++, config.profile && (def.name === 'petstore' || config.profileAll)));
    await withoutAutovacuum(db, () => runScenarios(db, servers, results, log));
  } finally {
    for (const s of servers) await s.stop();
    await db.destroy();
  }
  return results;
}

async function runScenarios(db: Kysely<Database>, servers: RunningServer[], results: HttpResults, log: (s: string) => void): Promise<void> {
  for (const name of config.scenarios) {
    const scenario = scenarios[name];
    if (!scenario) throw new Error(`unknown scenario ${name}`);
    // Same data for every scenario and server: creates of earlier scenarios are wiped here.
    await seedPets(db, config.httpRows);
    const rounds = new Map(servers.map((s) => [s.def.name, [] as Round[]]));
    const peaks = new Map<string, number>();
    for (const s of servers) {
      resetPeakRss(s.pid);
      await wrk(s.origin, scenario, config.warmupSeconds);
    }
    for (let r = 0; r < config.rounds; r++) {
      const order = servers.map((_, i) => servers[(i + r) % servers.length]!);
      for (const s of order) {
        // Each server is measured in its own steady state, whatever ran before it: a short lead-in
        // of the same load (its pool connected again if it idled past pg-pool's 10 s idle timeout
        // while the others ran, its code warm), unmeasured.
        if (config.leadInSeconds > 0) await wrk(s.origin, scenario, config.leadInSeconds);
        // Every measurement starts from the same table, with no vacuum or checkpoint due.
        await settlePets(db, config.httpRows);
        const dbBefore = await sampleBackends(db);
        const before = cpuTimes(s.pid);
        const w = await wrk(s.origin, scenario, config.seconds);
        const after = cpuTimes(s.pid);
        const dbCpu = backendCpuBetween(dbBefore, await sampleBackends(db));
        const cpu = after.user + after.system - before.user - before.system;
        const user = after.user - before.user;
        if (w.non2xx || w.errors || w.requests === 0) {
          throw new Error(`${s.def.name} ${name}: ${w.non2xx} non-2xx responses, ${w.errors} socket errors, ${w.requests} requests`);
        }
        const dbUs = (dbCpu * 1e6) / w.requests;
        rounds.get(s.def.name)!.push({ rps: w.rps, p99: w.p99, cpuUs: (cpu * 1e6) / w.requests, userUs: (user * 1e6) / w.requests, dbUs });
        log(
          `  ${name} round ${r + 1} ${s.def.name}: ${fmt.int(w.rps)} req/s, p99 ${fmt.ms(w.p99)} ms, ${fmt.us((cpu * 1e6) / w.requests)} us CPU/req (user ${fmt.us((user * 1e6) / w.requests)}), PostgreSQL ${fmt.us(dbUs)} us/req`,
        );
      }
    }
    for (const s of servers) peaks.set(s.def.name, peakRss(s.pid));
    results.rounds.set(name, rounds);
    results.peak.set(name, peaks);
  }
}

/** (ours / theirs) of each round, pairing the rounds of one run. */
function perRound(ours: Round[], theirs: Round[], key: keyof Round): number[] {
  return ours.map((o, i) => o[key] / theirs[i]![key]);
}

/** Median over rounds of (ours / theirs). */
function ratio(ours: Round[], theirs: Round[], key: keyof Round): number {
  return median(perRound(ours, theirs, key));
}

/** The 25th to the 75th percentile over rounds of (ours / theirs). */
function middleHalf(ours: Round[], theirs: Round[], key: keyof Round): string {
  const ratios = perRound(ours, theirs, key);
  return `${fmt.ratio(percentile(ratios, 25))}-${fmt.ratio(percentile(ratios, 75))}`;
}

export function httpReport(res: HttpResults): string {
  const rows: (string | number)[][] = [];
  const ratios: (string | number)[][] = [];
  for (const [scenario, byServer] of res.rounds) {
    for (const [server, rounds] of byServer) {
      rows.push([
        scenario,
        res.labels.get(server)!,
        fmt.int(median(rounds.map((r) => r.rps))),
        fmt.ms(median(rounds.map((r) => r.p99))),
        fmt.us(median(rounds.map((r) => r.cpuUs))),
        fmt.us(median(rounds.map((r) => r.userUs))),
        fmt.us(median(rounds.map((r) => r.dbUs))),
        fmt.mb(res.peak.get(scenario)!.get(server)!),
      ]);
    }
    const ours = byServer.get('petstore');
    if (!ours) continue;
    for (const [server, rounds] of byServer) {
      if (server === 'petstore') continue;
      const peakRatio = res.peak.get(scenario)!.get('petstore')! / res.peak.get(scenario)!.get(server)!;
      ratios.push([
        scenario,
        `petstore / ${server}`,
        fmt.ratio(ratio(ours, rounds, 'rps')),
        fmt.ratio(ratio(ours, rounds, 'p99')),
        fmt.ratio(ratio(ours, rounds, 'cpuUs')),
        middleHalf(ours, rounds, 'cpuUs'),
        fmt.ratio(ratio(ours, rounds, 'userUs')),
        fmt.ratio(ratio(ours, rounds, 'dbUs')),
        fmt.ratio(peakRatio),
      ]);
    }
  }
  return [
    table(['scenario', 'server', 'req/s', 'p99 ms', 'server CPU us/req', 'of which user', 'PostgreSQL CPU us/req', 'peak RSS MB'], rows),
    '',
    'Ratios (median of per-round ratios; CPU/req and p99 lower is better, req/s higher is better). The middle half of',
    "the rounds' CPU/req ratios (25th to 75th percentile) shows how far one round moves: a target that falls inside it",
    'is neither clearly met nor clearly missed.',
    '',
    table(
      ['scenario', 'pair', 'req/s', 'p99', 'CPU/req', 'CPU/req, middle half of rounds', 'user CPU/req', 'PostgreSQL CPU/req', 'peak RSS'],
      ratios,
    ),
  ].join('\n');
}
