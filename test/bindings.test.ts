// The one seam between the store and its adapters (src/bindings.ts): `store.fetch(request,
// bindings)` uses only bindings made by createBindings for that very request. A runtime's own
// second argument (Deno's info, Bun's server, Hono's env), a look-alike object or bindings made for
// another request change nothing: the answer is the plain one, a standard Response.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type AdapterBindings, type PetStore, createBindings, createPetStore, targetUrl } from '../src/index.js';
import { sharedPGlite } from './helpers/db.js';
import { KEY } from './helpers/harness.js';

const PETS = 'http://x/v1/pets';
let store: PetStore | undefined;
const ready = async () => (store ??= createPetStore({ db: await sharedPGlite(), keys: [KEY] }));

/** Parts that would let an anonymous request in: proof of whether the store took them. */
const letIn = (): AdapterBindings => ({ header: (name) => (name === 'authorization' ? `Bearer ${KEY}` : null) });

test('foreign second arguments are ignored: the plain answer, a standard Response', async () => {
  const s = await ready();
  const foreign: [string, unknown][] = [
    ["Deno's info", { remoteAddr: { transport: 'tcp', hostname: '127.0.0.1', port: 1 }, completed: Promise.resolve() }],
    ["Bun's server", { port: 3000, url: new URL('http://localhost:3000/'), fetch: () => new Response('no') }],
    ["Hono's env on Node", { incoming: {}, outgoing: {} }],
    ['a look-alike of the bindings parts', letIn()],
    ['null', null],
    ['a string', 'bindings'],
  ];
  for (const [name, second] of foreign) {
    const response = await s.fetch(new Request(PETS), second as never);
    assert.is(response.status, 401, name);
    assert.is(Object.getPrototypeOf(response), Response.prototype, name);
  }
});

test('bindings made for another request are ignored', async () => {
  const s = await ready();
  const request = new Request(PETS);
  const response = await s.fetch(request, createBindings(new Request(PETS), letIn()));
  assert.is(response.status, 401);
  assert.is((await s.fetch(request, createBindings(request, letIn()))).status, 200, 'the same parts for this request are used');
});

test("the adapter's URL parts are used while their href is request.url, else request.url is parsed", async () => {
  const s = await ready();
  const request = new Request('http://x/v1/nothing', { headers: { authorization: `Bearer ${KEY}` } });
  assert.is((await s.fetch(request)).status, 404);
  // Parts that disagree with their own href: only a store that took them would route to /v1/pets.
  const pets = targetUrl('http', 'x', '/v1/pets')!;
  const taken = { href: request.url, origin: pets.origin, pathname: pets.pathname, searchParams: pets.searchParams };
  assert.is((await s.fetch(request, createBindings(request, { url: taken }))).status, 200, 'taken');
  const stale = { ...taken, href: 'http://x/v1/pets' };
  assert.is((await s.fetch(request, createBindings(request, { url: stale }))).status, 404, 'stale: not taken');
});

test("the adapter's JSON factory builds the answers, errors and HEAD excepted", async () => {
  const s = await ready();
  const seen: unknown[] = [];
  const jsonResponse: AdapterBindings['jsonResponse'] = (answer) => {
    seen.push({ status: answer.status, type: answer.headers['content-type'], json: JSON.parse(answer.text) });
    return new Response(answer.text, { status: answer.status, headers: { ...answer.headers, 'x-built-by': 'adapter' } });
  };
  const get = new Request(PETS, { headers: { authorization: `Bearer ${KEY}` } });
  const page = await s.fetch(get, createBindings(get, { jsonResponse }));
  assert.is(page.headers.get('x-built-by'), 'adapter');
  const anonymous = new Request(PETS);
  const denied = await s.fetch(anonymous, createBindings(anonymous, { jsonResponse }));
  assert.is(denied.status, 401);
  assert.is(denied.headers.get('x-built-by'), 'adapter', 'error answers too');
  assert.is(denied.headers.get('www-authenticate'), 'Bearer');
  const head = new Request(PETS, { method: 'HEAD', headers: { authorization: `Bearer ${KEY}` } });
  const headAnswer = await s.fetch(head, createBindings(head, { jsonResponse }));
  assert.is(headAnswer.headers.get('x-built-by'), null, 'HEAD: status and headers only');
  assert.is(headAnswer.body, null);
  assert.equal(
    seen.map((x) => (x as { status: number }).status),
    [200, 401],
  );
});

test('the contract is typed: a misspelt member does not compile; runtimes can still be handed store.fetch', async () => {
  const s = await ready();
  const request = new Request(PETS);
  // @ts-expect-error `heder` is not a member of AdapterBindings
  createBindings(request, { heder: () => null });
  // Deno.serve(store.fetch) and Bun.serve(store) typecheck: their second arguments are accepted.
  const deno: (request: Request, info: { remoteAddr: { hostname: string; port: number } }) => Response | Promise<Response> = s.fetch;
  const bun: { fetch(request: Request, server: { port: number; url: URL }): Response | Promise<Response> } = s;
  assert.is((await deno(request, { remoteAddr: { hostname: '127.0.0.1', port: 1 } })).status, 401);
  assert.is((await bun.fetch(new Request(PETS), { port: 1, url: new URL(PETS) })).status, 401);
});

test.run();
