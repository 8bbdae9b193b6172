import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResponseEvent } from '../src/index.js';
import { accessLine, accessLineText, createAccessLog } from '../adapters/cli/access-log.js';

const event = (over: Partial<ResponseEvent> = {}): ResponseEvent => ({
  request: new Request('http://127.0.0.1:8080/v1/pets/42?limit=2&name=%22x%22'),
  status: 200,
  operationId: 'getPet',
  route: '/v1/pets/{petId}',
  durationMs: 1.23456,
  requestId: 'abc-123',
  keyId: '9b346041bc9a',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  error: undefined,
  ...over,
});

test('the written line is exactly JSON.stringify of the fields (differential), for every shape of event', () => {
  const cases = [
    event(),
    event({ traceId: undefined, keyId: undefined, route: undefined, operationId: undefined, status: 404 }),
    event({ request: new Request('http://h/v1/p\u00e9ts?q="\\\u2028') }),
    event({ request: new Request('http://h/'), durationMs: 0 }),
    event({ request: new Request('http://h/v1/pets#frag') }),
  ];
  for (const e of cases) {
    const text = accessLineText(e);
    assert.ok(text.endsWith('}\n'));
    const parsed = JSON.parse(text);
    assert.equal({ ...parsed, time: 0 }, { ...JSON.parse(JSON.stringify(accessLine(e))), time: 0 });
    assert.not.ok('request' in parsed);
  }
  assert.is(JSON.parse(accessLineText(cases[0]!)).url, '/v1/pets/42?limit=2&name=%22x%22');
  assert.is(JSON.parse(accessLineText(cases[4]!)).url, '/v1/pets');
  assert.is(JSON.parse(accessLineText(cases[0]!)).responseTime, 1.235);
});

test('lines are gathered per turn of the event loop and written in whole lines of at most 4 KiB', async () => {
  const writes: string[] = [];
  const log = createAccessLog((chunk) => void writes.push(chunk));
  for (let i = 0; i < 100; i++) log.onResponse(event({ requestId: `req-${i}` }));
  assert.is(writes.length, 0, 'nothing written synchronously');
  await new Promise((r) => setImmediate(r));
  assert.ok(writes.length > 1);
  for (const chunk of writes) {
    assert.ok(Buffer.byteLength(chunk) <= 4096, `a write of ${Buffer.byteLength(chunk)} bytes`);
    assert.ok(chunk.endsWith('\n'));
  }
  const ids = writes
    .join('')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).reqId);
  assert.equal(
    ids,
    Array.from({ length: 100 }, (_, i) => `req-${i}`),
  );
});

test.run();
