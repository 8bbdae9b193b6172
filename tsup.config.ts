import { defineConfig } from 'tsup';

// One build entry per public subpath. Adapters import the core through its public name
// ('petstore-router'), kept external so the package never carries two copies of the core.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    pglite: 'src/pglite.ts',
    pg: 'src/pg.ts',
    testing: 'src/testing.ts',
    deno: 'adapters/deno.ts',
    bun: 'adapters/bun.ts',
    express: 'adapters/express.ts',
    fastify: 'adapters/fastify.ts',
    node: 'adapters/node.ts',
    docs: 'adapters/docs.ts',
    cloudflare: 'adapters/cloudflare.ts',
    browser: 'src/browser.ts',
    msw: 'adapters/msw.ts',
    cli: 'adapters/cli.ts',
  },
  format: ['esm'],
  target: 'node22',
  // Keep `node:stream` etc. as written: Deno resolves Node built-ins only with the prefix.
  removeNodeProtocol: false,
  // @internal helpers shared between entries stay out of the published types.
  dts: { compilerOptions: { stripInternal: true } },
  clean: true,
  sourcemap: true,
  splitting: true,
  treeshake: true,
  external: [/^petstore-router(\/.*)?$/, '@electric-sql/pglite', 'pg', 'fastify', 'kysely', 'valibot', 'itty-router', 'msw'],
});
