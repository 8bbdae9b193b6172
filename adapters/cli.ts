#!/usr/bin/env node
/**
 * The `petstore-router` command: `serve` the API standalone (PGlite or PostgreSQL), `migrate` a
 * PostgreSQL database, or write the `snapshot` file of `petstore-router/browser`. See docs/node.md
 * and docs/browser.md. Exit codes: 0 success, 1 failure, 2 usage error.
 */
import { readFileSync } from 'node:fs';
import { parseCommand } from './cli/args.js';
import { CliError, EXIT_FAILURE, EXIT_OK, describe } from './cli/errors.js';
import { withInstalledPeers } from './cli/optional-peers.js';
import { runServe } from './cli/serve.js';
import { runSnapshot } from './cli/snapshot.js';
import { USAGE } from './cli/usage.js';

async function main(argv: readonly string[]): Promise<number> {
  const command = parseCommand(argv, process.env);
  switch (command.kind) {
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return EXIT_OK;
    case 'version':
      process.stdout.write(`${version()}\n`);
      return EXIT_OK;
    // The store's modules are loaded where needed: `serve` loads them while PGlite starts (cli/serve.ts).
    case 'migrate':
      return (await import('./cli/migrate.js')).runMigrate(command);
    case 'openapi': {
      const { openApiDocument } = await import('petstore-router');
      process.stdout.write(`${JSON.stringify(openApiDocument(), null, 2)}\n`);
      return EXIT_OK;
    }
    case 'serve':
      return runServe(withInstalledPeers(command));
    case 'snapshot':
      return runSnapshot(command);
  }
}

/** From package.json, one level up both from adapters/cli.ts and from the built dist/cli.js. */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof CliError) {
      process.stderr.write(`petstore-router: ${error.message}\n`);
      process.exit(error.exitCode);
    }
    process.stderr.write(`petstore-router: unexpected failure: ${describe(error)}\n`);
    process.exit(EXIT_FAILURE);
  },
);
