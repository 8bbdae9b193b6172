import * as assert from 'uvu/assert';
import { KEY } from '../helpers/harness.js';
import { sampleRequests } from '../helpers/operations.js';
import { type BehaviourRun, area, body, expectError, withStore } from './context.js';

/** Spec §5 and decisions "401", "keys", "keys at rest", "several Authorization headers", "order of checks". */
export function authBehaviour(run: BehaviourRun): void {
  const test = area(run, 'authentication');

  test('no Authorization header: 401, WWW-Authenticate: Bearer, Error body', async ({ call }) => {
    const res = await call('/v1/pets', { anonymous: true });
    assert.is(res.headers.get('www-authenticate'), 'Bearer');
    await expectError(res, 401, 'unauthorized');
  });

  test('a wrong key: 401 with error="invalid_token", and the key is never echoed', async ({ call }) => {
    const res = await call('/v1/pets', { headers: { authorization: 'Bearer wrong-key-abc' } });
    assert.is(res.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
    const err = await expectError(res, 401, 'unauthorized');
    assert.not.match(JSON.stringify(err), /wrong-key|test-key/);
  });

  test('the scheme name is case-insensitive', async ({ call }) => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      const res = await call('/v1/pets', { headers: { authorization: `${scheme} ${KEY}` } });
      assert.is(res.status, 200, scheme);
    }
  });

  test('empty or malformed credentials are 401', async ({ call }) => {
    for (const value of ['Bearer', 'Bearer ', `Basic ${btoa(`user:${KEY}`)}`, KEY, `Token ${KEY}`, `Bearer ${KEY} extra`]) {
      const res = await call('/v1/pets', { headers: { authorization: value } });
      await expectError(res, 401, 'unauthorized');
    }
  });

  test('a prefix or a suffix of the real key is 401', async ({ call }) => {
    for (const value of [KEY.slice(0, -1), KEY.slice(1), `${KEY}x`, `x${KEY}`, KEY.toUpperCase()]) {
      const res = await call('/v1/pets', { headers: { authorization: `Bearer ${value}` } });
      await expectError(res, 401, 'unauthorized');
    }
  });

  test('several Authorization headers are 401, even if each carries the right key', async ({ call }) => {
    const res = await call('/v1/pets', {
      headers: [
        ['authorization', `Bearer ${KEY}`],
        ['authorization', `Bearer ${KEY}`],
      ],
    });
    await expectError(res, 401, 'unauthorized');
  });

  test('401 comes before 404, 405, 400, 413 and 415 under the base path', async ({ call }) => {
    const anon = { anonymous: true };
    await expectError(await call('/v1/nothing-here', anon), 401, 'unauthorized');
    await expectError(await call('/v1/pets', { ...anon, method: 'DELETE' }), 401, 'unauthorized');
    await expectError(await call('/v1/pets?limit=0', anon), 401, 'unauthorized');
    await expectError(await call('/v1/pets/abc', anon), 401, 'unauthorized');
    await expectError(await call('/v1/pets', { ...anon, method: 'POST', body: 'x'.repeat(70_000) }), 401, 'unauthorized');
    await expectError(
      await call('/v1/pets', { ...anon, method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } }),
      401,
      'unauthorized',
    );
  });

  test('every operation requires the key', async ({ call }) => {
    const samples = sampleRequests().filter((r) => !r.public);
    assert.ok(samples.length >= 4, 'the route table lists the operations');
    for (const { method, path, body } of samples) {
      for (const headers of [undefined, { authorization: 'Bearer wrong-key' }]) {
        const res = await call(path, { method, anonymous: true, ...(headers ? { headers } : {}), ...(body === undefined ? {} : { body }) });
        await expectError(res, 401, 'unauthorized');
      }
      // The same request with the key is not a 401: the sample is a valid request of the operation.
      assert.is.not((await call(path, { method, ...(body === undefined ? {} : { body }) })).status, 401, `${method} ${path}`);
    }
  });

  test('outside the base path: 404, key or not', async ({ call }) => {
    await expectError(await call('/v2/pets', { anonymous: true }), 404, 'not_found');
    await expectError(await call('/pets'), 404, 'not_found');
    await expectError(await call('/'), 404, 'not_found');
  });

  test('several keys at once (rotation), plain and sha256:<hex>', async ({ db }) => {
    const digest = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('hashed-key'))))
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    await withStore(run, db, { keys: ['old-key', `sha256:${digest}`] }, async (call) => {
      assert.is((await call('/v1/pets', { headers: { authorization: 'Bearer old-key' } })).status, 200);
      assert.is((await call('/v1/pets', { headers: { authorization: 'Bearer hashed-key' } })).status, 200);
      // The digest itself is not a key.
      await expectError(await call('/v1/pets', { headers: { authorization: `Bearer sha256:${digest}` } }), 401, 'unauthorized');
      await expectError(await call('/v1/pets', { headers: { authorization: `Bearer ${KEY}` } }), 401, 'unauthorized');
    });
  });

  test('an async verifier receives the key and the request', async ({ db }) => {
    const seen: string[] = [];
    const keys = async (key: string, request: Request) => {
      seen.push(`${key} ${new URL(request.url).pathname}`);
      return key === 'from-vault';
    };
    await withStore(run, db, { keys }, async (call) => {
      assert.equal(await body(await call('/v1/pets', { headers: { authorization: 'Bearer from-vault' } })), []);
      await expectError(await call('/v1/pets', { headers: { authorization: 'Bearer other' } }), 401, 'unauthorized');
    });
    assert.equal(seen, ['from-vault /v1/pets', 'other /v1/pets']);
  });

  test.run();
}
