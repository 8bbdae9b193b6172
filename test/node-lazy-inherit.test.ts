import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// adapters/node/inherit.ts: the Node bridge's wrappers (NodeHeaders, NodeRequest, NodeJsonResponse)
// inherit from Headers, Request and Response only once something needs it, so a server that never
// touches those classes never loads Node's fetch implementation. Each case imports a fresh copy of
// a wrapper (a query string makes a new module instance), so its first touch is the one under test.

const ROOT = join(import.meta.dirname, '..');
let copies = 0;
const freshHeaders = async () => (await import(`../adapters/node/headers.ts?copy=${++copies}`)).NodeHeaders as typeof Headers;
const freshResponse = async () =>
  (await import(`../adapters/node/response.ts?copy=${++copies}`)).NodeJsonResponse as new (
    text: string,
    status: number,
    headers: Record<string, string>,
  ) => Response;
const RAW = ['Content-Type', 'application/json', 'X-Twice', 'a', 'x-twice', 'b'];
const entries = (headers: Headers) => [...new Headers(headers as HeadersInit)].map(([k, v]) => `${k}: ${v}`);

test('first touch by instanceof: true, and the chain is the plain one from then on', async () => {
  const NodeHeaders = await freshHeaders();
  assert.ok(new NodeHeaders(RAW as unknown as HeadersInit) instanceof Headers);
  assert.is(Object.getPrototypeOf(NodeHeaders.prototype), Headers.prototype);
});

test('first touch by a member the wrapper lacks: the member works on the wrapper, as on Headers', async () => {
  const NodeHeaders = await freshHeaders();
  const headers = new NodeHeaders(RAW as unknown as HeadersInit);
  const seen: string[] = [];
  headers.forEach((value, name) => seen.push(`${name}: ${value}`));
  assert.equal(seen, ['content-type: application/json', 'x-twice: a, b']);
  assert.equal(entries(headers), seen);
});

test('first touch by iteration, by `in`, by the string tag, by assignment', async () => {
  const H1 = await freshHeaders();
  assert.equal(
    [...new H1(RAW as unknown as HeadersInit)],
    [
      ['content-type', 'application/json'],
      ['x-twice', 'a, b'],
    ],
  );
  const H2 = await freshHeaders();
  assert.ok('append' in new H2([]));
  const H3 = await freshHeaders();
  assert.is(Object.prototype.toString.call(new H3([])), '[object Headers]');
  const H4 = await freshHeaders();
  const headers = new H4([]) as Headers & { mark?: number };
  headers.mark = 1;
  assert.ok(Object.hasOwn(headers, 'mark'));
  assert.ok(headers instanceof Headers);
});

test('awaiting a wrapper (a `then` lookup) resolves nothing, and the wrapper is what is awaited', async () => {
  const NodeJsonResponse = await freshResponse();
  const response = new NodeJsonResponse('{"a":1}', 200, { 'content-type': 'application/json' });
  assert.is(await Promise.resolve(response), response);
  assert.is.not(Object.getPrototypeOf(NodeJsonResponse.prototype), Response.prototype, 'not resolved by the then lookup');
  assert.ok(response instanceof Response);
  assert.equal(await response.clone().json(), { a: 1 });
});

test('a request answered by the store through the Node bridge never needs Headers, Request or Response', async () => {
  // A new process: here those classes are loaded already. The client is node:http, required (an
  // ES import of it would load the fetch implementation itself).
  const script = `
import { createRequire } from 'node:module';
const { createPetStore } = await import('./src/index.ts');
const { createPGliteDatabase } = await import('./src/pglite.ts');
const { serve, nodeResponse } = await import('./adapters/node.ts');
const store = createPetStore({ db: await createPGliteDatabase(), keys: ['lazy-inherit-key-0001'], basePath: '/v1', createResponse: nodeResponse });
const seen = {};
const served = await serve({ fetch: async (request) => { seen.request = request; seen.headers = request.headers; return (seen.response = await store.fetch(request)); } }, { port: 0 });
const http = createRequire(import.meta.url)('node:http');
const answer = await new Promise((resolve, reject) => http.get(served.url + '/v1/pets', { headers: { authorization: 'Bearer lazy-inherit-key-0001' } }, (res) => {
  let body = ''; res.setEncoding('utf8'); res.on('data', (c) => (body += c)); res.on('end', () => resolve({ status: res.statusCode, body }));
}).on('error', reject));
const parents = ['request', 'headers', 'response'].map((k) => Object.getPrototypeOf(Object.getPrototypeOf(seen[k])));
const resolved = parents.map((p, i) => p === [Request, Headers, Response][i].prototype);
console.log(JSON.stringify({ ...answer, resolved, isRequest: seen.request instanceof Request, isResponse: seen.response instanceof Response }));
await served.close();
process.exit(0);`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '' },
  });
  const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    status: number;
    body: string;
    resolved: boolean[];
    isRequest: boolean;
    isResponse: boolean;
  };
  assert.is(out.status, 200);
  assert.equal(JSON.parse(out.body), []);
  assert.equal(out.resolved, [false, false, false], 'request, headers, response: none needed its web class to answer');
  assert.ok(out.isRequest && out.isResponse, 'and each is still an instance of its class when asked');
});

test.run();
