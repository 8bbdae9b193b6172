import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, createPetStore } from '../src/index.js';
import { createAuthenticator } from '../src/pipeline/auth.js';

const request = (authorization?: string) =>
  new Request('http://x/v1/pets', authorization === undefined ? {} : { headers: { authorization } });

async function status(auth: ReturnType<typeof createAuthenticator>, header?: string): Promise<number | string> {
  try {
    await auth(request(header));
    return 200;
  } catch (e) {
    assert.instance(e, ApiError);
    return `${(e as ApiError).status} ${(e as ApiError).headers?.['www-authenticate']}`;
  }
}

test('configured keys are checked at creation, and the message never echoes a key', () => {
  const cases: [unknown, RegExp][] = [
    [[], /at least one key/],
    [[''], /keys\[0\]/],
    [['good', 'has space'], /keys\[1\]/],
    [['a,b'], /keys\[0\]/],
    [['sha256:abc'], /64 hex/],
    [[42], /keys\[0\]/],
  ];
  for (const [keys, message] of cases) {
    assert.throws(
      () => createAuthenticator(keys as string[]),
      (e: Error) => e instanceof TypeError && message.test(e.message) && !/space|good|abc/.test(e.message),
    );
  }
  // A Kysely-shaped db, so the keys are what createPetStore names (test/options.test.ts has the rest).
  const db = { selectFrom() {}, executeQuery() {}, withSchema() {}, transaction() {}, destroy() {} };
  assert.throws(() => createPetStore({ db: db as never, keys: undefined as never }), /options\.keys must be a key, a list of keys/);
});

test('missing, malformed and wrong credentials get distinct RFC 6750 challenges', async () => {
  const auth = createAuthenticator(['k1']);
  assert.is(await status(auth), '401 Bearer');
  assert.is(await status(auth, 'Basic azE='), '401 Bearer error="invalid_request"');
  assert.is(await status(auth, 'Bearer k1, Bearer k1'), '401 Bearer error="invalid_request"');
  assert.is(await status(auth, 'Bearer k2'), '401 Bearer error="invalid_token"');
  assert.is(await status(auth, 'Bearer  k1'), 200);
  assert.is(await status(auth, 'bearer k1'), 200);
});

test('a verifier must answer exactly true; anything else, or a throw, is a 401 or an error', async () => {
  for (const answer of [1, 'yes', {}, null, undefined, false]) {
    const auth = createAuthenticator(async () => answer as boolean);
    assert.is(await status(auth, 'Bearer k'), '401 Bearer error="invalid_token"', String(JSON.stringify(answer)));
  }
  assert.is(
    await status(
      createAuthenticator(() => true),
      'Bearer k',
    ),
    200,
  );
});

test('the principal is a digest of the key, never the key', async () => {
  const auth = createAuthenticator(['secret-key-1', 'secret-key-2']);
  const a = await auth(request('Bearer secret-key-1'));
  const b = await auth(request('Bearer secret-key-2'));
  assert.match(a, /^[0-9a-f]{64}$/);
  assert.is.not(a, b);
  assert.not.match(a, /secret/);
});

test('a plain key and its sha256: form give the same principal; only configured keys pass', async () => {
  const digest = (await import('node:crypto')).createHash('sha256').update('secret-key-1').digest('hex');
  const plain = createAuthenticator(['secret-key-1', `sha256:${'0'.repeat(64)}`]);
  const hashed = createAuthenticator([`sha256:${digest.toUpperCase()}`]);
  assert.is(await plain(request('Bearer secret-key-1')), digest);
  assert.is(await hashed(request('Bearer secret-key-1')), digest);
  // Near misses of a plain key (a prefix, another case, one more character) are refused.
  for (const near of ['secret-key-', 'SECRET-KEY-1', 'secret-key-11']) {
    assert.is(await status(plain, `Bearer ${near}`), '401 Bearer error="invalid_token"', near);
    assert.is(await status(hashed, `Bearer ${near}`), '401 Bearer error="invalid_token"', near);
  }
});
test.run();
