// The `petstore-router` command itself (adapters/cli.ts loads it once the Node version is known to do).
import { parseCommand } from './args.js';
import { CliError, EXIT_FAILURE, EXIT_OK, describe } from './errors.js';
import { withInstalledPeers } from './optional-peers.js';
import { runServe } from './serve.js';
import { runSnapshot } from './snapshot.js';
import { USAGE } from './usage.js';

async function main(argv: readonly string[], version: () => string): Promise<number> {
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
      return (await import('./migrate.js')).runMigrate(command);
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

/** Runs the command of `argv` and exits with its code; `version` reads the package's version. */
export function run(argv: readonly string[], version: () => string): void {
  main(argv, version).then(
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
}
