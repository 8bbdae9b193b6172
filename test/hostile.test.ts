import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from '../src/index.js';
import { matchesAny } from '../src/pipeline/auth.js';
import { sharedPGlite } from './helpers/db.js';
import { KEY, inProcess } from './helpers/harness.js';
import { expectStatus, within } from './hostile/check.js';
import { hostileInputSuite } from './hostile/suite.js';

hostileInputSuite(inProcess, sharedPGlite).run();

// In-process only: what a socket transport cannot express, and the structure of the key check.
const local = suite('hostile input (in-process only)');
const request = (init: RequestInit & { duplex?: 'half' }, authorization = `Bearer ${KEY}`) =>
  new Request('http://petstore.test/v1/pets', {
    method: 'POST',
    duplex: 'half',
    ...init,
    headers: { authorization, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });

local('an upload that breaks off is a 400, not a 500 or a 503 (regression)', async () => {
  const errors: unknown[] = [];
  const store = createPetStore({ db: await sharedPGlite(), keys: [KEY], onError: (e) => errors.push(e) });
  for (const failure of [new Error('socket hang up'), Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })]) {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":'));
        controller.error(failure);
      },
    });
    await expectStatus(await within(store.fetch(request({ body }))), 400, 'invalid_request');
  }
  assert.is(errors.length, 0, 'nothing reported as a server failure');
});

local('a request aborted before its body starts, whose body never comes, is a 400 at once', async () => {
  const store = createPetStore({ db: await sharedPGlite(), keys: [KEY] });
  const abort = new AbortController();
  abort.abort();
  const body = new ReadableStream<Uint8Array>({ start() {} }); // nothing, ever
  await expectStatus(await within(store.fetch(request({ body, signal: abort.signal }))), 400);
});

local('an aborted request whose body stalls does not hang (regression)', async () => {
  const store = createPetStore({ db: await sharedPGlite(), keys: [KEY] });
  const abort = new AbortController();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"name":')); // and then nothing, ever
    },
  });
  const pending = store.fetch(request({ body, signal: abort.signal }));
  setTimeout(() => abort.abort(), 20);
  await expectStatus(await within(pending), 400);
});

/**
 * An honest, non-timing check that the key comparison takes the same path whatever the input:
 * count the character reads of the comparison through Proxies. A key differing in its first or
 * last character (or matching) reads every character of every accepted digest, no early exit.
 */
local('the key comparison reads all 64 hex characters of every accepted digest, whatever the input', () => {
  const digest = (c: string) => c.repeat(64);
  let reads = 0;
  // A String object behind a Proxy: each charCodeAt call is one counted read.
  const counted = (hex: string) =>
    new Proxy(new String(hex), {
      get(target, prop) {
        if (prop === 'charCodeAt') {
          return (i: number) => {
            reads++;
            return target.charCodeAt(i);
          };
        }
        return Reflect.get(target, prop);
      },
    }) as unknown as string;
  const accepted = [counted(digest('1')), counted(digest('2')), counted(digest('3'))];
  const firstDiffers = `9${digest('2').slice(1)}`;
  const lastDiffers = `${digest('2').slice(1)}9`;
  const counts: Record<string, number> = {};
  for (const [label, presented, expected] of [
    ['match', digest('2'), true],
    ['first character differs', firstDiffers, false],
    ['last character differs', lastDiffers, false],
    ['all differ', digest('f'), false],
  ] as const) {
    reads = 0;
    assert.is(matchesAny(counted(presented), accepted), expected, label);
    counts[label] = reads;
  }
  // 3 accepted digests x 64 characters, read from both sides.
  assert.equal(new Set(Object.values(counts)), new Set([2 * 3 * 64]), JSON.stringify(counts));
});

local('wrong keys all take the same path: byte-identical 401s, whatever the length or the differing character', async () => {
  const digestOfKey = createHash('sha256').update(KEY).digest('hex');
  const store = createPetStore({ db: await sharedPGlite(), keys: ['another-key-42', `sha256:${digestOfKey}`] });
  const ask = async (authorization: string) => {
    // One X-Request-Id for all: otherwise each answer carries its own random one.
    const res = await store.fetch(
      new Request('http://petstore.test/v1/pets', { headers: { authorization, 'x-request-id': 'wrong-keys' } }),
    );
    return { status: res.status, headers: [...res.headers], body: await res.text() };
  };
  assert.is((await ask(`Bearer ${KEY}`)).status, 200, 'the sha256: form accepts the key it is the digest of');
  const wrong = [
    `x${KEY.slice(1)}`,
    `${KEY.slice(0, -1)}x`,
    KEY.slice(0, 3),
    KEY.slice(3),
    'k'.repeat(10_240),
    digestOfKey,
    `sha256:${digestOfKey}`,
  ];
  const answers = await Promise.all(wrong.map((key) => ask(`Bearer ${key}`)));
  for (const [i, a] of answers.entries()) {
    assert.equal(a, answers[0], wrong[i]!.slice(0, 20));
    assert.not.ok(JSON.stringify(a).includes(KEY.slice(0, 8)));
  }
  assert.is(answers[0]!.status, 401, 'presenting the configured digest is not presenting the key');
});

// Kysely-shaped (createPetStore checks db's shape first); the keys are what is refused here.
const KYSELY_SHAPED = { selectFrom() {}, executeQuery() {}, withSchema() {}, transaction() {}, destroy() {} };

local('no key or part of one in the configuration errors', () => {
  for (const keys of [[`${KEY} x`], [`sha256:${KEY}`], [KEY, '']]) {
    let thrown: unknown;
    try {
      createPetStore({ db: KYSELY_SHAPED as never, keys });
    } catch (error) {
      thrown = error;
    }
    // Outside the try: an assertion thrown inside it would be caught as the expected error.
    assert.instance(thrown, TypeError, `keys ${JSON.stringify(keys)} were accepted`);
    const message = (thrown as Error).message;
    assert.match(message, /^petstore-router: createPetStore: options\.keys\[\d\] /);
    for (let i = 0; i + 8 <= KEY.length; i++) assert.not.ok(message.includes(KEY.slice(i, i + 8)), message);
  }
});

local.run();
