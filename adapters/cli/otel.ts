import type { OpenTelemetryApi } from 'petstore-router';
import { CliError, describe } from './errors.js';

/** What `serve --otel` started: the API module for the store, and the flush-and-stop of the SDK. */
export interface OpenTelemetry {
  api: OpenTelemetryApi;
  shutdown(): Promise<void>;
}

/**
 * `serve --otel`: starts the OpenTelemetry Node SDK (an optional peer, loaded only here) with its
 * OTLP exporters for traces and metrics, configured by the standard OTEL_* variables
 * (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL `http/protobuf` or `http/json`,
 * OTEL_SERVICE_NAME, OTEL_METRIC_EXPORT_INTERVAL, ...). No automatic instrumentation: the store
 * makes its own spans. `shutdown()` exports what is buffered, so nothing recorded before a
 * SIGTERM is lost.
 */
export async function startOpenTelemetry(env: NodeJS.ProcessEnv = process.env): Promise<OpenTelemetry> {
  let api: typeof import('@opentelemetry/api');
  let sdkNode: typeof import('@opentelemetry/sdk-node');
  try {
    api = await import('@opentelemetry/api');
    sdkNode = await import('@opentelemetry/sdk-node');
  } catch (error) {
    const missing = /Cannot find (?:package|module) '(@opentelemetry\/[\w-]+)/.exec(describe(error))?.[1];
    if (!missing) throw error;
    throw new CliError(
      `--otel needs ${missing}: npm install @opentelemetry/api @opentelemetry/sdk-node@0.223 (0.300 and later need Node 22.15 or newer)`,
    );
  }
  // The SDK's own defaults, said out loud: OTLP for traces and metrics; no OpenTelemetry logs
  // (the access log is ours); the service named after us unless OTEL_SERVICE_NAME says otherwise.
  env.OTEL_SERVICE_NAME ??= 'petstore-router';
  env.OTEL_TRACES_EXPORTER ??= 'otlp';
  env.OTEL_METRICS_EXPORTER ??= 'otlp';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  const sdk = new sdkNode.NodeSDK({ instrumentations: [] });
  sdk.start();
  return {
    api,
    shutdown: () =>
      sdk.shutdown().catch((error: unknown) => void process.stderr.write(`petstore-router: OpenTelemetry shutdown: ${describe(error)}\n`)),
  };
}
