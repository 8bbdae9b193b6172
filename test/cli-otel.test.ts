import { createServer } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { send } from './reliability/helpers/load.js';
import { KEY, startServer, stopGracefully, tempDataDir } from './reliability/helpers/server.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const WRONG_KEY = 'presented-wrong-key-4242';

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: OtlpValue }[];
}

/** A local OTLP/HTTP receiver (JSON): every body posted to it, by path. */
async function startReceiver() {
  const bodies: { path: string; text: string }[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      bodies.push({ path: req.url ?? '', text });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    bodies,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

const attributes = (span: OtlpSpan) =>
  Object.fromEntries(
    span.attributes.map(({ key, value }) => [
      key,
      value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)),
    ]),
  );

test('serve --otel exports spans and the duration metric over OTLP/HTTP JSON as OTEL_* says, flushed at SIGTERM, with no key', async () => {
  const receiver = await startReceiver();
  const saved = { ...process.env };
  Object.assign(process.env, {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'petstore-otel-test',
  });
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer(['--data-dir', tempDataDir(), '--otel']);
    const created = await send(`${server.url}/pets`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
    });
    assert.is(created.status, 201, created.body);
    const { id } = JSON.parse(created.body) as { id: number };
    assert.is((await send(`${server.url}/pets/${id}`)).status, 200);
    assert.is((await send(`${server.url}/pets`, { key: WRONG_KEY })).status, 401);
    const exit = await stopGracefully(server);
    assert.is(exit.code, 0, server.stderr());
  } finally {
    process.env = saved;
    server?.child.kill('SIGKILL');
    await receiver.close();
  }

  const traces = receiver.bodies.filter((b) => b.path === '/v1/traces');
  const metrics = receiver.bodies.filter((b) => b.path === '/v1/metrics');
  assert.ok(traces.length > 0, `traces exported (got ${receiver.bodies.map((b) => b.path).join()})`);
  assert.ok(metrics.length > 0, 'metrics exported at shutdown');
  const spans = traces.flatMap((b) =>
    (JSON.parse(b.text) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((s) => s.spans),
    ),
  );
  const servers = spans.filter((s) => s.kind === 2);
  assert.equal(servers.map((s) => s.name).sort(), ['GET /v1/pets', 'GET /v1/pets/{petId}', 'POST /v1/pets']);
  const post = servers.find((s) => s.name === 'POST /v1/pets')!;
  assert.is(post.traceId, TRACE_ID);
  assert.is(post.parentSpanId, PARENT_ID);
  assert.equal(attributes(post), {
    'http.request.method': 'POST',
    'url.path': '/v1/pets',
    'url.scheme': 'http',
    'http.response.status_code': 201,
    'http.route': '/v1/pets',
  });
  const children = spans.filter((s) => s.kind === 3 && s.parentSpanId === post.spanId);
  assert.ok(children.length >= 1, 'the create has a database span');
  const insert = children.find((s) => attributes(s)['db.operation.name'] === 'INSERT')!;
  assert.is(attributes(insert)['db.system.name'], 'postgresql');
  assert.match(String(attributes(insert)['db.query.text']), /^.*insert into .*\$1/is);
  assert.ok(
    metrics.some((b) => b.text.includes('"http.server.request.duration"')),
    'the duration metric',
  );
  assert.ok(traces[0]!.text.includes('petstore-otel-test'), 'OTEL_SERVICE_NAME names the service');

  const everything = receiver.bodies.map((b) => b.text).join('\n') + server.stdout() + server.stderr();
  assert.not.ok(everything.includes(KEY), 'the configured key is nowhere');
  assert.not.ok(everything.includes(WRONG_KEY), 'the presented key is nowhere');
});

test.run();
