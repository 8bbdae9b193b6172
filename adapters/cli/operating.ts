import type { PetStoreOptions } from 'petstore-router';
import type { ServeCommand } from './args.js';
import { createAccessLog } from './access-log.js';

/** What one serving process adds to each store it creates, and how it stops. */
export interface Operating {
  /** Options for every createPetStore of this process (a key reload creates a new store). */
  storeOptions: Pick<PetStoreOptions, 'cors' | 'onResponse' | 'health'>;
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
export async function startOperating(command: ServeCommand, role: 'single' | 'worker'): Promise<Operating> {
  const { accessLog, metrics, corsOrigins } = command.operating;
  let draining = false;
  const hooks: ((event: Parameters<NonNullable<PetStoreOptions['onResponse']>>[0]) => void)[] = [];
  let closeMetrics = async () => {};
  if (metrics) {
    const m = await import('./metrics.js');
    const recorder = m.createMetrics(role === 'worker');
    hooks.push(recorder.onResponse);
    if (role === 'single') closeMetrics = (await startMetricsListener(command, m.registrySource(recorder.registry))).close;
  }
  const log = accessLog ? createAccessLog() : undefined;
  if (log) hooks.push(log.onResponse);
  const [first, second] = hooks;
  const storeOptions: Operating['storeOptions'] = { health: { draining: () => draining } };
  if (first) storeOptions.onResponse = second ? (event) => (first(event), second(event)) : first;
  if (corsOrigins) storeOptions.cors = { origins: corsOrigins };
  return {
    storeOptions,
    drain: () => void (draining = true),
    close: async () => {
      log?.flush();
      await closeMetrics();
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
