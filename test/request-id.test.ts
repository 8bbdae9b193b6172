import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type ResponseEvent, createPetStore, keyId } from '../src/index.js';
import { resetDatabase, sharedPGlite } from './helpers/db.js';
import { KEY, ORIGIN } from './helpers/harness.js';
import { brokenDatabase, mounted, transports } from './helpers/operating.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const auth = { authorization: `Bearer ${KEY}` };
const req = (path: string, init: RequestInit = {}) => new Request(ORIGIN + path, init);
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

for (const transport of transports) {
  test(`${transport.name}: every answer carries X-Request-Id: the request's own when valid, else a new UUID`, async () => {
    const store = createPetStore({ db: await sharedPGlite(), keys: [KEY] });
    await mounted(transport, store, async (fetch) => {
      const answers = [
        await fetch(req('/v1/pets', { headers: auth })),
        await fetch(req('/v1/pets')), // 401
        await fetch(req('/v1/nothing', { headers: auth })), // 404
        await fetch(req('/v1/pets', { method: 'DELETE', headers: auth })), // 405
        await fetch(req('/v1/pets', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{' })), // 400
        await fetch(req('/v1/pets', { method: 'HEAD', headers: auth })),
        await fetch(req('/other')), // outside the base path
        await fetch(req('/v1/openapi.json')),
      ];
      assert.equal(
        answers.map((r) => r.status),
        [200, 401, 404, 405, 400, 200, 404, 200],
      );
      const ids = answers.map((r) => r.headers.get('x-request-id') ?? '');
      for (const id of ids) assert.match(id, UUID);
      assert.is(new Set(ids).size, ids.length, 'a new id each time');

      const valid = ['abc', 'A-z_0.9:=', 'x'.repeat(200), '0f8fad5b-d9cb-469f-a165-70867728950e'];
      for (const id of valid) {
        assert.is(
          (await fetch(req('/v1/pets', { headers: { 'x-request-id': id } }))).headers.get('x-request-id'),
          id,
          'echoed, on a 401 too',
        );
      }
      for (const id of ['x'.repeat(201), 'a b', 'a/b', 'a,b', '<script>', 'é']) {
        const res = await fetch(req('/v1/pets', { headers: { ...auth, 'x-request-id': id } }));
        assert.match(res.headers.get('x-request-id') ?? '', UUID, `${JSON.stringify(id)} is replaced`);
      }
    });
  });

  test(`${transport.name}: a 500 carries the id, and onError and onResponse get the same one`, async () => {
    const errors: [unknown, string][] = [];
    const events: ResponseEvent[] = [];
    const store = createPetStore({
      db: brokenDatabase(),
      keys: [KEY],
      onError: (error, _request, context) => errors.push([error, context.requestId]),
      onResponse: (event) => void events.push(event),
    });
    await mounted(transport, store, async (fetch) => {
      const res = await fetch(req('/v1/pets', { headers: { ...auth, 'x-request-id': 'trace-me-500' } }));
      assert.is(res.status, 500);
      assert.is(res.headers.get('x-request-id'), 'trace-me-500');
      assert.not.match(await res.text(), /boom/);
    });
    assert.is(errors.length, 1);
    assert.is(errors[0]![1], 'trace-me-500');
    assert.match(String(errors[0]![0]), /boom/);
    assert.is(events.length, 1);
    assert.is(events[0]!.requestId, 'trace-me-500');
    assert.is(events[0]!.error, errors[0]![0], 'the event carries the 5xx error');
  });

  test(`${transport.name}: onResponse: one event per request with status, operation, route template, duration, ids`, async () => {
    const db = await sharedPGlite();
    await resetDatabase(db);
    const events: ResponseEvent[] = [];
    const digest = createHash('sha256').update('second-key').digest('hex');
    const store = createPetStore({ db, keys: [KEY, `sha256:${digest}`], onResponse: (e) => void events.push(e) });
    await mounted(transport, store, async (fetch) => {
      const traceparent = `00-${TRACE}-00f067aa0ba902b7-01`;
      const created = await fetch(
        req('/v1/pets', {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', traceparent },
          body: '{"name":"Rex","categoryId":1}',
        }),
      );
      const { id } = await created.json();
      await fetch(
        req(`/v1/pets/${id}`, { headers: { authorization: 'Bearer second-key', traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` } }),
      );
      await fetch(req('/v1/pets', { headers: { authorization: 'Bearer wrong', traceparent: 'garbage' } }));
      await fetch(req('/v1/nowhere', { headers: auth }));
      await fetch(req('/v1/health'));
      assert.is(events.length, 5, 'once per request');
      const [create, getPet, unauthorized, unmatched, health] = events as [
        ResponseEvent,
        ResponseEvent,
        ResponseEvent,
        ResponseEvent,
        ResponseEvent,
      ];
      assert.is(create.status, 201);
      assert.is(create.operationId, 'createPet');
      assert.is(create.route, '/v1/pets');
      assert.is(create.keyId, keyId(KEY));
      assert.is(create.keyId, createHash('sha256').update(KEY).digest('hex').slice(0, 12));
      assert.is(create.traceId, TRACE);
      assert.is(create.requestId, created.headers.get('x-request-id'));
      assert.is(create.request.method, 'POST');
      assert.ok(create.durationMs >= 0 && create.durationMs < 10_000, String(create.durationMs));
      assert.is(create.error, undefined);
      assert.is(getPet.route, '/v1/pets/{petId}');
      assert.is(getPet.operationId, 'getPet');
      assert.is(getPet.keyId, keyId('second-key'), 'a key configured as sha256: has the same id');
      assert.is(getPet.keyId, keyId(`sha256:${digest}`));
      assert.is(getPet.traceId, undefined, 'an all-zero trace id is invalid');
      assert.is(unauthorized.status, 401);
      assert.is(unauthorized.keyId, undefined);
      assert.is(unauthorized.traceId, undefined);
      assert.is(unmatched.status, 404);
      assert.is(unmatched.route, undefined);
      assert.is(unmatched.operationId, undefined);
      assert.is(health.operationId, 'getHealth');
      assert.is(health.route, '/v1/health');
      assert.is(health.keyId, undefined);
      for (const e of events) assert.not.ok(JSON.stringify({ ...e, request: undefined }).includes(KEY.slice(0, 8)), 'no key in an event');
    });
  });

  test(`${transport.name}: onResponse cannot break, change or delay an answer: what it throws goes to onError`, async () => {
    const db = await sharedPGlite();
    const errors: [unknown, string][] = [];
    const onError = (error: unknown, _r: Request, c: { requestId: string }) => errors.push([error, c.requestId]);
    let calls = 0;
    for (const onResponse of [
      () => {
        calls++;
        throw new Error('hook threw');
      },
      async () => {
        calls++;
        throw new Error('hook rejected');
      },
      () => {
        calls++;
        return new Promise<void>(() => {}); // never settles
      },
    ]) {
      await mounted(transport, createPetStore({ db, keys: [KEY], onError, onResponse }), async (fetch) => {
        const res = await fetch(req('/v1/pets', { headers: { ...auth, 'x-request-id': 'hooked' } }));
        assert.is(res.status, 200);
        assert.ok(Array.isArray(await res.json()));
      });
    }
    await new Promise((r) => setImmediate(r));
    assert.is(calls, 3);
    assert.equal(
      errors.map(([e, id]) => [(e as Error).message, id]),
      [
        ['hook threw', 'hooked'],
        ['hook rejected', 'hooked'],
      ],
    );
  });
}

test('keyId: 12 hex characters of the SHA-256, plain or sha256: form alike', () => {
  const digest = createHash('sha256').update('k').digest('hex');
  assert.is(keyId('k'), digest.slice(0, 12));
  assert.is(keyId(`sha256:${digest.toUpperCase()}`), digest.slice(0, 12));
});

test('options are checked at creation', async () => {
  const db = await sharedPGlite();
  assert.throws(() => createPetStore({ db, keys: [KEY], onResponse: 'log' as never }), /onResponse must be a function/);
});

test.run();
