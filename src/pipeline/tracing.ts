import type * as Otel from '@opentelemetry/api';

/**
 * The `@opentelemetry/api` module, as the store uses it: pass the module itself
 * (`import * as otel from '@opentelemetry/api'`). Declared here by shape, so the store's types
 * need no OpenTelemetry package: it is an optional peer, loaded by you, never by the store.
 */
export interface OpenTelemetryApi {
  trace: { getTracer(name: string, version?: string): unknown; setSpan(context: never, span: never): unknown };
  context: { active(): unknown; with(context: never, fn: never): unknown };
  propagation: { extract(context: never, carrier: never, getter?: never): unknown };
  metrics: { getMeter(name: string, version?: string): unknown };
}

/** The instrumentation scope of the store's spans and metric. */
const SCOPE = 'petstore-router';
/** OpenTelemetry's advised boundaries for http.server.request.duration, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** HTTP methods by the semantic conventions; anything else is `_OTHER`, its text in `http.request.method_original`. */
const KNOWN_METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE', 'QUERY']);
/** SpanKind.SERVER, SpanKind.CLIENT and SpanStatusCode.ERROR of the API (stable enum values). */
const SERVER = 1;
const CLIENT = 2;
const ERROR = 2;

/** Reads header fields of a standard `Headers` for the propagator (W3C `traceparent`, ...). */
const headersGetter: Otel.TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/** One request's span and the context its database spans are children of. */
export interface RequestTrace {
  span: Otel.Span;
  context: Otel.Context;
  method: string;
  scheme: string;
}

/**
 * The store's OpenTelemetry instrumentation (option `openTelemetry`): one SERVER span per request
 * named `METHOD ROUTE`, continuing the trace of an incoming `traceparent` (through the
 * propagator the application registered), a CLIENT span per statement, and the metric
 * `http.server.request.duration`, all with the stable semantic-convention attributes. Nothing it
 * records carries a header, a query string or a statement's values: so never an API key.
 */
export class Telemetry {
  readonly #api: typeof Otel;
  readonly #tracer: Otel.Tracer;
  readonly #duration: Otel.Histogram;

  /** `api` as options/store.ts checked it: an object with trace, context, propagation and metrics. */
  constructor(api: OpenTelemetryApi) {
    this.#api = api as unknown as typeof Otel;
    this.#tracer = this.#api.trace.getTracer(SCOPE);
    this.#duration = this.#api.metrics.getMeter(SCOPE).createHistogram('http.server.request.duration', {
      description: 'Duration of HTTP server requests.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
  }

  /** Starts the request's span, a child of the caller's context or of the incoming `traceparent`. */
  startRequest(request: Request, url: URL): RequestTrace {
    const api = this.#api;
    const parent = api.propagation.extract(api.context.active(), request.headers, headersGetter);
    const known = KNOWN_METHODS.has(request.method);
    const method = known ? request.method : '_OTHER';
    const scheme = url.origin.slice(0, url.origin.indexOf(':'));
    const attributes: Otel.Attributes = { 'http.request.method': method, 'url.path': url.pathname, 'url.scheme': scheme };
    if (!known) attributes['http.request.method_original'] = request.method;
    const span = this.#tracer.startSpan(known ? request.method : 'HTTP', { kind: SERVER, attributes }, parent);
    return { span, context: api.trace.setSpan(parent, span), method, scheme };
  }

  /** Runs `fn` with the request's context active, so spans the application makes inside are its children. */
  within<T>(trace: RequestTrace, fn: () => T): T {
    return this.#api.context.with(trace.context, fn);
  }

  /** A statement's span, a child of the request's; the function returned ends it. */
  startStatement(trace: RequestTrace, sql: string): (error?: unknown) => void {
    const { operation, table } = summary(sql);
    const span = this.#tracer.startSpan(
      table === undefined ? operation : `${operation} ${table}`,
      {
        kind: CLIENT,
        attributes: {
          'db.system.name': 'postgresql',
          'db.system': 'postgresql',
          'db.operation.name': operation,
          ...(table === undefined ? {} : { 'db.collection.name': table }),
          'db.query.text': sql,
        },
      },
      trace.context,
    );
    return (error) => {
      if (error !== undefined) {
        const type = errorType(error);
        span.setAttribute('error.type', type);
        span.setStatus({ code: ERROR, message: type });
      }
      span.end();
    };
  }

  /** Ends the request's span (name `METHOD ROUTE` once routed) and records its duration. */
  endRequest(trace: RequestTrace, route: string | undefined, status: number, seconds: number): void {
    const { span, method, scheme } = trace;
    const attributes: Otel.Attributes = { 'http.request.method': method, 'url.scheme': scheme, 'http.response.status_code': status };
    if (route !== undefined) {
      attributes['http.route'] = route;
      span.updateName(`${method === '_OTHER' ? 'HTTP' : method} ${route}`);
    }
    if (status >= 500) {
      attributes['error.type'] = String(status);
      span.setStatus({ code: ERROR });
    }
    span.setAttributes(attributes);
    span.end();
    this.#duration.record(seconds, attributes);
  }
}

/** `INSERT pets` from a statement's text (after the store's leading comment): operation and table. */
function summary(sql: string): { operation: string; table: string | undefined } {
  const text = sql.replace(/^\s*\/\*.*?\*\/\s*/, '');
  const operation = (/^\s*(\w+)/.exec(text)?.[1] ?? 'QUERY').toUpperCase();
  const table = /\b(?:from|into|update)\s+(?:"?\w+"?\.)?"?(\w+)"?/i.exec(text)?.[1];
  return { operation, table };
}

/** The error's SQLSTATE or errno code, else its class name: never its message (it may quote values). */
function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code !== '') return code;
  return error instanceof Error ? error.name : 'Error';
}
