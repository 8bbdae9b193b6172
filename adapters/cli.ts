#!/usr/bin/env node
/**
 * The `petstore-router` command: `serve` the API standalone (PGlite or PostgreSQL), `migrate` a
 * PostgreSQL database, or write the `snapshot` file of `petstore-router/browser`. See docs/node.md
 * and docs/browser.md. Exit codes: 0 success, 1 failure, 2 usage error.
 */
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { nodeVersionProblem } from './cli/node-version.js';

// Checked before the command's modules load, so an older Node gets this sentence, not whatever breaks first.
const problem = nodeVersionProblem(process.versions.node);
if (problem !== undefined) {
  process.stderr.write(`petstore-router: ${problem}\n`);
  process.exit(1);
}

/** From package.json, one level up both from adapters/cli.ts and from the built dist/cli.js. */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

// Node's on-disk cache of compiled modules (documented, Node 22.1+): a second start skips compiling
// Kysely and our modules again. A cache it cannot write is reported in the result, never thrown.
module.enableCompileCache?.();

(await import('./cli/main.js')).run(process.argv.slice(2), version);
