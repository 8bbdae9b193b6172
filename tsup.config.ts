import { type Options, build, defineConfig } from 'tsup';

const common: Options = {
  format: ['esm'],
  target: 'node22',
  // Keep `node:stream` etc. as written: Deno resolves Node built-ins only with the prefix.
  removeNodeProtocol: false,
  sourcemap: true,
  splitting: true,
  treeshake: true,
};

/**
 * The `petstore-router` command (dist/cli.js, its chunks in dist/cli/): a program, not a library
 * entry, so it carries its own copy of the core and of Kysely, valibot, itty-router and
 * @noble/hashes, one bundle instead of some 300 modules for Node's loader to resolve at each start
 * (Kysely's 260 files cost the second start ~150 ms: docs/performance.md). PGlite (its WebAssembly
 * and data files are found beside its modules), pg and the optional peers stay the installed ones.
 * 'petstore-router/*' resolves to the sources through tsconfig.json's paths.
 */
const cli: Options = {
  ...common,
  entry: { cli: 'adapters/cli.ts' },
  dts: false,
  clean: false,
  external: ['@electric-sql/pglite', 'pg', 'fastify', 'msw', 'prom-client', 'swagger-ui-dist', /^@opentelemetry\//],
  noExternal: [/^petstore-router(\/.*)?$/, 'kysely', 'valibot', '@valibot/to-json-schema', 'itty-router', /^@noble\/hashes(\/.*)?$/],
  esbuildOptions(options) {
    options.chunkNames = 'cli/[name]-[hash]';
    options.sourcesContent = false; // its maps name the files; Kysely's are installed beside it
  },
};

// One build entry per public subpath. Adapters import the core through its public name
// ('petstore-router'), kept external so the package never carries two copies of the core for a
// user's program to load; the command (above) is built after these, into the cleaned dist/.
export default defineConfig({
  ...common,
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
  },
  // @internal helpers shared between entries stay out of the published types.
  dts: { compilerOptions: { stripInternal: true } },
  clean: true,
  external: [/^petstore-router(\/.*)?$/, '@electric-sql/pglite', 'pg', 'fastify', 'kysely', 'valibot', 'itty-router', 'msw'],
  async onSuccess() {
    await build({ ...cli, config: false, silent: true });
  },
});
