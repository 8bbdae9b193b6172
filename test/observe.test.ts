import * as otel from '@opentelemetry/api';
import { core } from '@opentelemetry/sdk-node';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../src/index.js';
import { sharedPGlite } from './helpers/db.js';
import { KEY, ORIGIN } from './helpers/harness.js';
import { mounted, transports, unreachableDatabase } from './helpers/operating.js';

// The application's side: an SDK with in-memory exporters, registered globally as an SDK does.
const spans = new InMemorySpanExporter();
otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
otel.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
otel.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const WRONG_KEY = 'presented-wrong-key-4242';
const auth = { authorization: `Bearer ${KEY}` };
const SERVER_TIMING = /^db;dur=(\d+\.\d), total;dur=(\d+\.\d)$/;

const parentOf = (span: ReadableSpan) =>
  (span as unknown as { parentSpanContext?: { spanId: string } }).parentSpanContext?.spanId ??
  (span as unknown as { parentSpanId?: string }).parentSpanId;

for (const transport of transports) {
  test(`${transport.name}: serverTiming adds db and total durations; absent by default`, async () => {
    const db = await sharedPGlite();
    await mounted(transport, createPetStore({ db, keys: [KEY], serverTiming: true }), async (fetch) => {
      const res = await fetch(new Request(`${ORIGIN}/v1/pets`, { headers: auth }));
      assert.is(res.status, 200);
      const m = SERVER_TIMING.exec(res.headers.get('server-timing') ?? '');
      assert.ok(m, `Server-Timing: ${res.headers.get('server-timing')}`);
      assert.ok(Number(m[1]) > 0, 'the list query took time');
      assert.ok(Number(m[2]) >= Number(m[1]), 'total covers db');
      const unauthorized = await fetch(new Request(`${ORIGIN}/v1/pets`));
      assert.match(unauthorized.headers.get('server-timing') ?? '', /^db;dur=0\.0, total;dur=/, 'no statement before the 401');
    });
    await mounted(transport, createPetStore({ db, keys: [KEY] }), async (fetch) => {
      const res = await fetch(new Request(`${ORIGIN}/v1/pets`, { headers: auth }));
      assert.is(res.headers.get('server-timing'), null);
    });
  });
}

test('openTelemetry: a SERVER span per request named METHOD ROUTE, parent from traceparent, a CLIENT span per statement, the duration metric, no key', async () => {
  spans.reset();
  const store = createPetStore({ db: await sharedPGlite(), keys: [KEY], openTelemetry: otel });
  const traceparent = `00-${TRACE_ID}-${PARENT_ID}-01`;
  const created = await store.fetch(
    new Request(`${ORIGIN}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, traceparent, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex-otel', categoryId: 1 }),
    }),
  );
  assert.is(created.status, 201);
  const { id } = (await created.json()) as { id: number };
  assert.is((await store.fetch(new Request(`${ORIGIN}/v1/pets/${id}`, { headers: auth }))).status, 200);
  assert.is((await store.fetch(new Request(`${ORIGIN}/v1/pets`, { headers: { authorization: `Bearer ${WRONG_KEY}` } }))).status, 401);

  const finished = spans.getFinishedSpans();
  const servers = finished.filter((s) => s.kind === otel.SpanKind.SERVER);
  assert.equal(
    servers.map((s) => s.name),
    ['POST /v1/pets', 'GET /v1/pets/{petId}', 'GET /v1/pets'],
  );
  const [post, get, unauthorized] = servers as [ReadableSpan, ReadableSpan, ReadableSpan];
  assert.is(post.spanContext().traceId, TRACE_ID, 'continues the incoming trace');
  assert.is(parentOf(post), PARENT_ID, 'a child of the caller span');
  assert.is.not(get.spanContext().traceId, TRACE_ID, 'no traceparent: a new trace');
  assert.equal(post.attributes, {
    'http.request.method': 'POST',
    'url.path': '/v1/pets',
    'url.scheme': 'http',
    'http.response.status_code': 201,
    'http.route': '/v1/pets',
  });
  assert.is(get.attributes['http.route'], '/v1/pets/{petId}');
  assert.is(get.attributes['url.path'], `/v1/pets/${id}`);
  assert.is(unauthorized.attributes['http.response.status_code'], 401);

  const statements = finished.filter((s) => s.kind === otel.SpanKind.CLIENT);
  const ofPost = statements.filter((s) => parentOf(s) === post.spanContext().spanId);
  assert.ok(ofPost.length >= 1, 'the create ran a statement, as a child of its request');
  const insert = ofPost.find((s) => s.attributes['db.operation.name'] === 'INSERT')!;
  assert.ok(insert, ofPost.map((s) => s.name).join());
  assert.match(insert.name, /^INSERT \w*pets$/);
  assert.is(insert.spanContext().traceId, TRACE_ID);
  assert.is(insert.attributes['db.system.name'], 'postgresql');
  assert.is(insert.attributes['db.system'], 'postgresql');
  assert.match(String(insert.attributes['db.query.text']), /insert into "\w*pets"/i);
  assert.match(String(insert.attributes['db.query.text']), /\$1/);
  assert.not.match(String(insert.attributes['db.query.text']), /Rex-otel/, 'no value in the query text');
  assert.ok(
    statements.some((s) => parentOf(s) === get.spanContext().spanId),
    'the get ran a statement too',
  );

  await reader.forceFlush();
  const durations = metricExporter
    .getMetrics()
    .flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics))
    .filter((m) => m.descriptor.name === 'http.server.request.duration');
  assert.ok(durations.length > 0, 'http.server.request.duration recorded');
  assert.is(durations.at(-1)!.descriptor.unit, 's');
  const points = durations.at(-1)!.dataPoints;
  assert.ok(
    points.some((p) => p.attributes['http.route'] === '/v1/pets' && p.attributes['http.response.status_code'] === 201),
    JSON.stringify(points.map((p) => p.attributes)),
  );

  const exported = JSON.stringify({ finished: finished.map((s) => [s.name, s.attributes, s.events, s.status]), points });
  assert.not.ok(exported.includes(KEY), 'the configured key is nowhere');
  assert.not.ok(exported.includes(WRONG_KEY), 'the presented key is nowhere');
});

test('openTelemetry: a 503 has error.type and an error status', async () => {
  spans.reset();
  const store = createPetStore({ db: unreachableDatabase(), keys: [KEY], openTelemetry: otel, onError: () => {} });
  assert.is((await store.fetch(new Request(`${ORIGIN}/v1/pets`, { headers: auth }))).status, 503);
  const server = spans.getFinishedSpans().find((s) => s.kind === otel.SpanKind.SERVER)!;
  assert.is(server.name, 'GET /v1/pets');
  assert.is(server.attributes['error.type'], '503');
  assert.is(server.status.code, otel.SpanStatusCode.ERROR);
});

test('openTelemetry: anything but the api module fails at creation, naming the option', async () => {
  const db = await sharedPGlite();
  assert.throws(
    () => createPetStore({ db, keys: [KEY], openTelemetry: {} as never }),
    /options\.openTelemetry must be the @opentelemetry\/api module/,
  );
  assert.throws(() => createPetStore({ db, keys: [KEY], serverTiming: 'yes' as never }), /options\.serverTiming must be true or false/);
});

test.run();
