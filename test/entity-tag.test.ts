import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { conditionalAnswer } from '../src/pipeline/conditional.js';
import { entityTag, ifNoneMatchMatches } from '../src/http/entity-tag.js';
import { type Answer, jsonResponse, standardResponse, toResponse } from '../src/http/answer.js';

/** The Response the pipeline would return for an answer of a GET. */
const respond = async (answer: Answer | Promise<Answer>) => toResponse(await answer, 'GET', standardResponse);

// The tag must follow every change of the body or the Link header (decisions, "conditional GET").
test('a change of any one character of the body, or of the Link, changes the tag', () => {
  const body = JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ id: i, name: `Rëx ${i} 🐕`, status: 'available' })));
  const tag = entityTag(null, body);
  assert.match(tag, /^"[0-9a-z]+-[0-9a-f]{16}"$/);
  assert.is(entityTag(null, body), tag, 'stable');
  const seen = new Set([tag]);
  for (let i = 0; i < body.length; i++) {
    const changed = body.slice(0, i) + String.fromCharCode(body.charCodeAt(i) ^ 1) + body.slice(i + 1);
    const other = entityTag(null, changed);
    assert.ok(!seen.has(other), `position ${i}`);
    seen.add(other);
  }
  assert.is.not(entityTag('<http://x/v1/pets?cursor=a>; rel="next"', body), tag);
  assert.is.not(entityTag('<http://x/v1/pets?cursor=b>; rel="next"', body), entityTag('<http://x/v1/pets?cursor=a>; rel="next"', body));
  for (const [a, b] of [
    ['[]', '[] '],
    ['ab', 'ab\u0000'],
    ['', '\u0000'],
    ['{"a":1}', '{"a":2}'],
  ]) {
    assert.is.not(entityTag(null, a!), entityTag(null, b!), `${a} / ${b}`);
  }
  // A body longer than the scratch space it starts with.
  const long = 'x'.repeat(100_000);
  assert.is.not(entityTag(null, long), entityTag(null, `${long}y`));
  assert.is(entityTag(null, long), entityTag(null, 'x'.repeat(100_000)));
});

test('the Link and the body are hashed as one text, Link, line feed, body (encoded in two parts, never concatenated)', () => {
  const link = '<http://x/v1/pets?limit=20&cursor=eyJhIjoiMTAyMCJ9>; rel="next"';
  for (const body of ['', '[]', '[{"id":"1","name":"Rëx 🐕"}]', 'é'.repeat(40_000), `\udc00${'x'.repeat(10)}`]) {
    for (const l of [link, 'ü€𐍈\ud800', '']) assert.is(entityTag(l, body), entityTag(null, `${l}\n${body}`), `${l} / ${body.slice(0, 20)}`);
  }
});

test('If-None-Match: weak comparison, lists, *, and malformed fields that match nothing', () => {
  const tag = '"5-0123456789abcdef"';
  for (const field of [tag, `W/${tag}`, `"a", ${tag}`, `W/"a",W/${tag}`, ` ${tag} `, `${tag},`, '*', ' * ']) {
    assert.ok(ifNoneMatchMatches(field, tag), field);
  }
  for (const field of ['"a"', '', ',', `${tag} x`, '5-0123456789abcdef', `w/${tag}`, `"a" ${tag}`, `*, ${tag}`]) {
    assert.not.ok(ifNoneMatchMatches(field, tag), field);
  }
});

test("an answer that does not carry its text (read from a clone) gets the same tag and 304 as the store's own", async () => {
  const text = '[{"id":1,"name":"Rex"}]';
  const link = '<http://x/v1/pets?cursor=a>; rel="next"';
  const request = (tag?: string) => new Request('http://x/v1/pets', { headers: tag ? { 'if-none-match': tag } : {} });
  const own = await respond(conditionalAnswer(request(), jsonResponse(200, text, { link })));
  const plain = conditionalAnswer(request(), new Response(text, { status: 200, headers: { link } }));
  assert.instance(plain, Promise);
  const read = await respond(plain);
  assert.is(read.headers.get('etag'), own.headers.get('etag'));
  assert.is(await read.text(), text, 'the body is still there after the clone was read');
  const notModified = await respond(
    conditionalAnswer(request(own.headers.get('etag')!), new Response(text, { status: 200, headers: { link } })),
  );
  assert.is(notModified.status, 304);
  assert.is(notModified.headers.get('link'), null, "a list's next Link stays with the stored copy");
});

test('a 304 keeps Vary, X-Request-Id, the rate-limit and CORS fields; drops the representation fields', async () => {
  const kept = {
    vary: 'Origin',
    'x-request-id': 'req-1',
    ratelimit: '"default";r=1;t=5',
    'ratelimit-policy': '"default";q=2;w=60',
    'access-control-allow-origin': 'https://app.example',
    'access-control-expose-headers': 'ETag',
  };
  const answer = () => jsonResponse(200, '[]', { ...kept, 'content-language': 'en' });
  const first = await respond(conditionalAnswer(new Request('http://x/v1/pets'), answer()));
  const tag = first.headers.get('etag')!;
  const res = await respond(conditionalAnswer(new Request('http://x/v1/pets', { headers: { 'if-none-match': tag } }), answer()));
  assert.is(res.status, 304);
  for (const [name, value] of Object.entries(kept)) assert.is(res.headers.get(name), value, name);
  assert.is(res.headers.get('etag'), tag);
  assert.is(res.headers.get('cache-control'), 'private, no-cache');
  assert.is(res.headers.get('content-type'), null);
  assert.is(res.headers.get('content-language'), null);
});

test.run();
