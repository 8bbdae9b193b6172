import type { Server } from 'node:http';
import { type ResponseEvent, openApiDocument } from 'petstore-router';
import type { ReadRouting } from 'petstore-router/pg';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { nodeHttp } from '../node-http.js';
import { CliError, describe } from './errors.js';

/** OpenTelemetry's advised boundaries for http.server.request.duration, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** OpenTelemetry's known methods; anything else is `_OTHER`, so a client cannot grow the label set. */
const KNOWN_METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

/**
 * The metrics one serving process records (prom-client): the request duration histogram, the
 * deprecated-operation counter by key id, and the process metrics. With `--workers` each worker
 * records its own and answers the primary's aggregation requests (prom-client's cluster support).
 */
export function createMetrics(inCluster: boolean) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP server requests.',
    labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const deprecated = new Counter({
    name: 'petstore_deprecated_requests_total',
    help: 'Authenticated requests to deprecated operations, by operation and API key id.',
    labelNames: ['operation', 'key_id'],
    registers: [registry],
  });
  const shed = new Counter({
    name: 'petstore_shed_requests_total',
    help: 'Requests answered 503 overloaded: the bound of requests at work (--max-in-flight) and its queue were full, or one waited its 1 s.',
    registers: [registry],
  });
  const deprecatedOperations = deprecatedOperationIds();
  if (inCluster) {
    AggregatorRegistry.setRegistries([registry]);
    new AggregatorRegistry(); // registers the worker's answer to the primary's metrics requests
  }
  return {
    registry,
    onShed: () => shed.inc(),
    onResponse: (event: ResponseEvent): void => {
      const method = KNOWN_METHODS.has(event.request.method) ? event.request.method : '_OTHER';
      duration.observe(
        { http_request_method: method, http_route: event.route ?? 'unmatched', http_response_status_code: event.status },
        event.durationMs / 1000,
      );
      if (event.keyId !== undefined && event.operationId !== undefined && deprecatedOperations.has(event.operationId)) {
        deprecated.inc({ operation: event.operationId, key_id: event.keyId });
      }
    },
  };
}

/**
 * The read routing of a database with read replicas, read at each scrape: reads by the server
 * that answered them (`primary` or the replica's `host:port/database`), and per replica its lag
 * and whether reads may run on it.
 */
export function recordReadRouting(registry: Registry, routing: () => ReadRouting | undefined): void {
  new Counter({
    name: 'petstore_db_reads_total',
    help: 'Reads (list and get pets, list orders, health) by the server that answered them: primary or a read replica.',
    labelNames: ['target'],
    registers: [registry],
    collect() {
      const now = routing();
      if (now === undefined) return;
      // The totals are kept by the driver: set, not added to.
      this.reset();
      this.inc({ target: 'primary' }, now.primaryReads);
      for (const replica of now.replicas) this.inc({ target: replica.name }, replica.reads);
    },
  });
  new Gauge({
    name: 'petstore_read_replica_lag_seconds',
    help: 'How far the read replica replayed behind the primary at its last probe (0: caught up).',
    labelNames: ['replica'],
    registers: [registry],
    aggregator: 'max', // with --workers: each worker probes; the worst figure counts
    collect() {
      this.reset();
      for (const replica of routing()?.replicas ?? []) {
        if (replica.lagMs !== undefined) this.set({ replica: replica.name }, replica.lagMs / 1000);
      }
    },
  });
  new Gauge({
    name: 'petstore_read_replica_up',
    help: '1 while reads may run on the read replica; 0 while it is skipped (down, refusing or lagging past the bound).',
    labelNames: ['replica'],
    registers: [registry],
    aggregator: 'min',
    collect() {
      for (const replica of routing()?.replicas ?? []) this.set({ replica: replica.name }, replica.state === 'up' ? 1 : 0);
    },
  });
}

/** The operations the API's OpenAPI document marks deprecated (today `getPet`). */
function deprecatedOperationIds(): Set<string> {
  const ids = new Set<string>();
  for (const item of Object.values(openApiDocument().paths)) {
    for (const operation of Object.values(item as Record<string, { operationId?: string; deprecated?: boolean }>)) {
      if (operation.deprecated === true && operation.operationId) ids.add(operation.operationId);
    }
  }
  return ids;
}

/** Where /metrics text comes from: this process's registry, or every worker's (the primary). */
export type MetricsSource = { contentType: string; text(): Promise<string> };

export const registrySource = (registry: Registry): MetricsSource => ({
  contentType: registry.contentType,
  text: () => registry.metrics(),
});

export function clusterSource(): MetricsSource {
  const aggregator = new AggregatorRegistry();
  return { contentType: aggregator.contentType, text: () => aggregator.clusterMetrics() };
}

/** `GET /metrics` (and HEAD) on a listener of its own, no key: Prometheus text format 0.0.4. */
export async function serveMetrics(
  options: { port: number; host: string },
  source: MetricsSource,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = nodeHttp.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
    source.text().then(
      (text) =>
        res
          .writeHead(200, { 'content-type': source.contentType, 'cache-control': 'no-store' })
          .end(req.method === 'HEAD' ? undefined : text),
      (error: unknown) => res.writeHead(503, { 'content-type': 'text/plain' }).end(`metrics unavailable: ${describe(error)}\n`),
    );
  });
  server.keepAliveTimeout = 5_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => (server.off('error', reject), resolve()));
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `cannot serve metrics on ${options.host}:${options.port}: ${code === 'EADDRINUSE' ? 'the address is already in use' : describe(error)}`,
    );
  }
  const { port } = server.address() as { port: number };
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}
