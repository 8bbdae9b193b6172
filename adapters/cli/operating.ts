import type { Kysely } from 'kysely';
import type { Database, PetStoreOptions } from 'petstore-router';
import type { ServeCommand } from './args.js';
import { createAccessLog } from './access-log.js';
import { openHealthDatabase } from './database.js';
import { defaultMaxInFlight } from './shed.js';

/** What one serving process adds to each store it creates, and how it stops. */
export interface Operating {
  /** Options for every createPetStore of this process (a key reload creates a new store). */
  storeOptions: Pick<PetStoreOptions, 'cors' | 'onResponse' | 'health' | 'concurrency' | 'serverTiming' | 'openTelemetry'>;
  /** From the shutdown signal on, health answers 503 `fail`. */
  drain(): void;
  /** Flushes the access log and closes the metrics listener. */
  close(): Promise<void>;
}

/**
 * The access log, metrics and CORS of a serving process: `single` (no --workers) records and
 * serves its own metrics; a `worker` records them for the primary to aggregate. prom-client is
 * loaded only when --metrics-port is given.
 */
export async function startOperating(command: ServeCommand, role: 'single' | 'worker', db: Kysely<Database>): Promise<Operating> {
  const { accessLog, metrics, corsOrigins } = command.operating;
  let draining = false;
  const hooks: ((event: Parameters<NonNullable<PetStoreOptions['onResponse']>>[0]) => void)[] = [];
  let closeMetrics = async () => {};
  let onShed: (() => void) | undefined;
  if (metrics) {
    const m = await import('./metrics.js');
    const recorder = m.createMetrics(role === 'worker');
    hooks.push(recorder.onResponse);
    onShed = recorder.onShed;
    if (command.readReplicas !== undefined) {
      const { readRouting } = await import('petstore-router/pg');
      m.recordReadRouting(recorder.registry, () => readRouting(db));
    }
    if (role === 'single') closeMetrics = (await startMetricsListener(command, m.registrySource(recorder.registry))).close;
  }
  const healthDb = await openHealthDatabase(command);
  const otel = command.operating.otel ? await (await import('./otel.js')).startOpenTelemetry() : undefined;
  const log = accessLog ? createAccessLog() : undefined;
  if (log) hooks.push(log.onResponse);
  const [first, second] = hooks;
  const storeOptions: Operating['storeOptions'] = { health: { draining: () => draining, ...(healthDb ? { db: healthDb } : {}) } };
  if (first) storeOptions.onResponse = second ? (event) => (first(event), second(event)) : first;
  if (corsOrigins) storeOptions.cors = { origins: corsOrigins };
  const limit = command.operating.maxInFlight ?? defaultMaxInFlight(command);
  if (limit > 0) storeOptions.concurrency = { limit, ...(onShed ? { onShed } : {}) };
  if (command.operating.serverTiming) storeOptions.serverTiming = true;
  if (otel) storeOptions.openTelemetry = otel.api;
  return {
    storeOptions,
    drain: () => void (draining = true),
    close: async () => {
      log?.flush();
      await closeMetrics();
      await healthDb?.destroy();
      await otel?.shutdown();
    },
  };
}

/** The cluster primary's metrics listener: every worker's figures, aggregated. */
export async function startPrimaryMetrics(command: ServeCommand): Promise<{ close: () => Promise<void> }> {
  if (!command.operating.metrics) return { close: async () => {} };
  const m = await import('./metrics.js');
  return startMetricsListener(command, m.clusterSource());
}

async function startMetricsListener(command: ServeCommand, source: import('./metrics.js').MetricsSource) {
  const { serveMetrics } = await import('./metrics.js');
  const listener = await serveMetrics(command.operating.metrics!, source);
  process.stderr.write(`petstore-router: metrics on ${listener.url}\n`);
  return listener;
}
