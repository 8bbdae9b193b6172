import { DEFAULT_HOST } from '../listen-host.js';
import { integer, usage } from './flags.js';

/** The serve flags for operating the server: access log, metrics listener, CORS. */
export interface OperatingFlags {
  /** `--access-log`: one JSON line per finished request on stdout. */
  accessLog: boolean;
  /** `--metrics-port P [--metrics-host H]`: Prometheus text at http://H:P/metrics. */
  metrics?: { port: number; host: string };
  /** `--cors-origin` (repeatable): the allowed origins, or `'*'`. */
  corsOrigins?: string[] | '*';
  /** `--max-in-flight N`: the load-shedding bound; 0 turns shedding off; absent: the default (shed.ts). */
  maxInFlight?: number;
  /** `--db-max-wait-ms MS`: the partition bound of the PostgreSQL pools; absent: the driver's 5 s. */
  dbMaxWaitMs?: number;
  /** `--server-timing`: `Server-Timing: db;dur=…, total;dur=…` on every answer. */
  serverTiming: boolean;
  /** `--otel`: OpenTelemetry traces and metrics, exported by OTLP/HTTP as the OTEL_* variables say. */
  otel: boolean;
}

/** Their parseArgs declarations, merged into serve's. */
export const OPERATING_OPTIONS = {
  'access-log': { type: 'boolean' },
  'metrics-port': { type: 'string' },
  'metrics-host': { type: 'string' },
  'cors-origin': { type: 'string', multiple: true },
  'max-in-flight': { type: 'string' },
  'db-max-wait-ms': { type: 'string' },
  'server-timing': { type: 'boolean' },
  otel: { type: 'boolean' },
} as const;

interface OperatingValues {
  'access-log'?: boolean;
  'metrics-port'?: string;
  'metrics-host'?: string;
  'cors-origin'?: string[];
  'max-in-flight'?: string;
  'db-max-wait-ms'?: string;
  'server-timing'?: boolean;
  otel?: boolean;
}

/** Checks the operating flags (usage errors exit 2). `port` is serve's own port. */
export function operatingFlags(values: OperatingValues, port: number): OperatingFlags {
  const flags: OperatingFlags = {
    accessLog: values['access-log'] === true,
    serverTiming: values['server-timing'] === true,
    otel: values.otel === true,
  };
  if (values['max-in-flight'] !== undefined) flags.maxInFlight = integer('--max-in-flight', values['max-in-flight'], 0, 100_000);
  if (values['db-max-wait-ms'] !== undefined) flags.dbMaxWaitMs = integer('--db-max-wait-ms', values['db-max-wait-ms'], 1, 600_000);
  if (values['metrics-port'] !== undefined) {
    const metricsPort = integer('--metrics-port', values['metrics-port'], 0, 65_535);
    if (metricsPort !== 0 && metricsPort === port)
      throw usage('--metrics-port must differ from --port: metrics are served on a listener of their own');
    const host = values['metrics-host'] ?? DEFAULT_HOST;
    if (host.trim() === '') throw usage('--metrics-host needs an address');
    flags.metrics = { port: metricsPort, host };
  } else if (values['metrics-host'] !== undefined) {
    throw usage('--metrics-host needs --metrics-port');
  }
  const origins = values['cors-origin'];
  if (origins !== undefined) {
    if (origins.includes('*')) {
      if (origins.length > 1) throw usage("--cors-origin '*' allows every origin: give it alone");
      flags.corsOrigins = '*';
    } else {
      for (const origin of origins) {
        if (!isOrigin(origin)) {
          throw usage(
            `--cors-origin ${JSON.stringify(origin)} is not an origin: scheme://host[:port], no path or trailing slash (e.g. https://app.example)`,
          );
        }
      }
      flags.corsOrigins = origins;
    }
  }
  return flags;
}

function isOrigin(text: string): boolean {
  try {
    return new URL(text).origin === text && text !== 'null';
  } catch {
    return false;
  }
}
