import { serve as serveBun } from 'petstore-router/bun';
import { serve as serveDeno } from 'petstore-router/deno';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

// The real runs are in scripts/run-examples.sh (under Deno and Bun); here, the contract on Node:
// a clear error off the runtime, and options plus the store's fetch passed through on it.
const test = suite('deno and bun serve helpers');
const store = { basePath: '/v1', fetch: async (request: Request) => new Response(new URL(request.url).pathname) };
const g = globalThis as { Deno?: unknown; Bun?: unknown };

test('off their runtime they throw a clear error', () => {
  assert.throws(() => serveDeno(store), /petstore-router\/deno: Deno\.serve is not available/);
  assert.throws(() => serveBun(store), /petstore-router\/bun: Bun\.serve is not available/);
});

test('Deno: Deno.serve gets the options and a handler answering with the store', async () => {
  let seen: { options: unknown; handler: (r: Request) => Promise<Response> } | undefined;
  const server = { addr: { hostname: '127.0.0.1', port: 1 }, finished: Promise.resolve(), shutdown: async () => {} };
  g.Deno = { serve: (options: unknown, handler: (r: Request) => Promise<Response>) => ((seen = { options, handler }), server) };
  try {
    assert.is(serveDeno(store, { port: 1, hostname: '127.0.0.1' }), server);
    assert.equal(seen?.options, { port: 1, hostname: '127.0.0.1' });
    assert.is(await (await seen!.handler(new Request('http://x/v1/pets'))).text(), '/v1/pets');
  } finally {
    delete g.Deno;
  }
});

test('both listen on 127.0.0.1 unless told otherwise, like Node serve and the CLI', () => {
  const seen: unknown[] = [];
  const server = { addr: { hostname: '127.0.0.1', port: 1 }, finished: Promise.resolve(), shutdown: async () => {} };
  g.Deno = { serve: (options: unknown) => (seen.push(options), server) };
  g.Bun = { serve: (options: { hostname?: string }) => (seen.push({ hostname: options.hostname }), { port: 2 }) };
  try {
    serveDeno(store);
    serveBun(store);
    serveDeno(store, { hostname: '0.0.0.0' });
    serveBun(store, { hostname: '::' });
    assert.equal(seen, [{ hostname: '127.0.0.1' }, { hostname: '127.0.0.1' }, { hostname: '0.0.0.0' }, { hostname: '::' }]);
  } finally {
    delete g.Deno;
    delete g.Bun;
  }
});

test('Bun: Bun.serve gets the options and a fetch answering with the store', async () => {
  let seen: { port?: number; fetch: (r: Request, server: unknown) => Promise<Response> } | undefined;
  g.Bun = { serve: (options: typeof seen) => ((seen = options), { port: 2 }) };
  try {
    assert.equal(serveBun(store, { port: 2 }), { port: 2 });
    assert.is(seen?.port, 2);
    // Bun passes the server as a second argument; the store must not mind.
    assert.is(await (await seen!.fetch(new Request('http://x/v1/a'), {})).text(), '/v1/a');
  } finally {
    delete g.Bun;
  }
});

test.run();
