import fc from 'fast-check';
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { KEY } from '../helpers/harness.js';
import { answer, expectStatus, presented, toJson } from './check.js';
import type { HostileContext } from './suite.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const RUNS = Number(process.env.HOSTILE_RUNS ?? 150);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const codePoints = (s: string) => [...s].length;

/** A name the API must store exactly: 1..255 code points, not blank, no NUL, no lone surrogate. */
const storableName = fc
  .oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 255 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }),
    fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 255 }),
  )
  .filter((s) => codePoints(s) >= 1 && codePoints(s) <= 255 && s.trim() !== '' && !s.includes('\u0000') && !LONE_SURROGATE.test(s));

/** Values of every JSON type, and bigint, for fields that expect something else. */
const anyField = fc.oneof(fc.jsonValue(), fc.bigInt(), fc.bigInt({ min: INT64_MAX, max: INT64_MAX * 4n }));

/** Property-based hostile input, registered on the suite of `suite.ts`. */
export function registerProperties(test: Test<HostileContext>): void {
  test('property: any printable name round-trips exactly through create and get', async ({ call }) => {
    await fc.assert(
      fc.asyncProperty(storableName, async (name) => {
        const created = await expectStatus(await call('/v1/pets', { method: 'POST', body: toJson({ name, categoryId: 1n }) }), 201);
        assert.is(created.json.name, name);
        const got = await expectStatus(await call(`/v1/pets/${created.json.id}`), 200);
        assert.is(got.json.name, name);
      }),
      { numRuns: RUNS },
    );
  });

  test('property: any int64 categoryId round-trips exactly (also past 2^53)', async ({ call }) => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), async (categoryId) => {
        const created = await expectStatus(await call('/v1/pets', { method: 'POST', body: toJson({ name: 'n', categoryId }) }), 201);
        assert.is(created.json.categoryId, categoryId);
        const got = await expectStatus(await call(`/v1/pets/${created.json.id}`), 200);
        assert.is(got.json.categoryId, categoryId);
        assert.ok(got.text.includes(`"categoryId":${categoryId},`));
      }),
      { numRuns: RUNS },
    );
  });

  test('property: arbitrary JSON bodies get 201 or a well-formed 400, never more', async ({ call }) => {
    const body = fc.oneof(
      fc.json(),
      fc
        .record({ name: fc.oneof(storableName, anyField), categoryId: anyField, status: anyField, id: anyField }, { requiredKeys: [] })
        .map(toJson),
      fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'name', 'categoryId', 'toString'), anyField).map(toJson),
    );
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        await expectStatus(await call('/v1/pets', { method: 'POST', body: text }), [201, 400]);
      }),
      { numRuns: RUNS },
    );
  });

  test('property: arbitrary bytes as a body never get more than a 4xx', async ({ call }) => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), async (bytes) => {
        await expectStatus(await call('/v1/pets', { method: 'POST', body: bytes }), [201, 400]);
      }),
      { numRuns: RUNS },
    );
  });

  test('property: arbitrary query strings on GET /pets get 200 or a well-formed 400', async ({ call }) => {
    const name = fc.constantFrom('limit', 'status', 'cursor', 'x', '__proto__', '');
    const value = fc.oneof(fc.string(), fc.constantFrom('1', '100', '101', '0', '-1', 'sold', 'available', '%', '%00'));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(name, value), { maxLength: 6 }), async (pairs) => {
        const query = new URLSearchParams(pairs).toString();
        await expectStatus(await call(`/v1/pets?${query}`), [200, 400]);
      }),
      { numRuns: RUNS },
    );
  });

  test('property: arbitrary paths under the base path never get a 5xx', async ({ call }) => {
    await fc.assert(
      fc.asyncProperty(fc.webPath(), fc.constantFrom('GET', 'POST', 'HEAD', 'PUT'), async (path, method) => {
        const res = await call(`/v1${path}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
        if (method === 'HEAD') {
          assert.ok(res.status < 500);
          return;
        }
        await answer(res);
      }),
      { numRuns: RUNS },
    );
  });

  test('property: no Authorization header other than the exact key gets a 2xx', async ({ call }) => {
    const near = fc.oneof(
      fc.string({ unit: 'binary-ascii', maxLength: 64 }),
      fc.tuple(fc.nat(KEY.length), fc.string({ maxLength: 4 })).map(([n, s]) => KEY.slice(0, n) + s),
      fc.tuple(fc.nat(KEY.length), fc.string({ maxLength: 4 })).map(([n, s]) => s + KEY.slice(n)),
      fc.tuple(fc.nat(KEY.length - 1), fc.string({ minLength: 1, maxLength: 1 })).map(([i, c]) => KEY.slice(0, i) + c + KEY.slice(i + 1)),
    );
    const header = fc.tuple(fc.constantFrom('Bearer ', 'bearer ', 'Basic ', '', 'Bearer  '), near).map(([scheme, k]) => scheme + k);
    await fc.assert(
      fc.asyncProperty(header, async (authorization) => {
        let res: Response;
        try {
          res = await call('/v1/pets', { headers: { authorization } });
        } catch (error) {
          if (error instanceof TypeError) return; // not a valid header value: no request can carry it
          throw error;
        }
        const credential = /^bearer +(.*)$/i.exec(authorization.trim())?.[1];
        if (credential === KEY) await expectStatus(res, 200);
        else await expectStatus(res, 401, 'unauthorized', presented(authorization));
      }),
      { numRuns: RUNS },
    );
  });
}
