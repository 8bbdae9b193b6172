import cluster from 'node:cluster';
import { findOptionalPeer, missingPeerMessage } from '../optional-peer.js';
import type { ServeCommand } from './args.js';
import { CliError, EXIT_USAGE } from './errors.js';

/**
 * `serve` with the optional peers that are installed. The API reference page is served by default,
 * so without swagger-ui-dist the server starts without it and says so on stderr (once, from the
 * process the user started); --metrics-port was asked for, so without prom-client it is a usage
 * error naming the package.
 */
export function withInstalledPeers(command: ServeCommand): ServeCommand {
  if (command.operating.metrics && findOptionalPeer('prom-client') === undefined) {
    throw new CliError(missingPeerMessage('prom-client'), EXIT_USAGE);
  }
  if (command.docs && findOptionalPeer('swagger-ui-dist') === undefined) {
    if (cluster.isPrimary) {
      const message = missingPeerMessage('swagger-ui-dist', 'the API reference page at /v1/docs');
      process.stderr.write(`petstore-router: not serving /v1/docs: ${message} (or pass --no-docs)\n`);
    }
    return { ...command, docs: false };
  }
  return command;
}
