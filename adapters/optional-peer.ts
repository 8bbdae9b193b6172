import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/**
 * The optional peer dependencies: what only some users need (the API reference page's renderer,
 * the standalone server's metrics) is never installed with the package. Each entry that needs one
 * finds it here and, when it is absent, fails with a message that names the package to install.
 */
export const OPTIONAL_PEERS = {
  'swagger-ui-dist': 'the API reference page (apiReference() from petstore-router/docs)',
  'prom-client': 'the Prometheus metrics of the standalone server (--metrics-port)',
} as const;

export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/** The folder of an installed optional peer, or undefined when it is not installed. */
export function findOptionalPeer(name: OptionalPeer): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/** What to tell a user whose optional peer is missing: what needs it and the command that installs it. */
export function missingPeerMessage(name: OptionalPeer, what: string = OPTIONAL_PEERS[name]): string {
  return `${what} needs the optional peer dependency ${name}, which is not installed: npm install ${name}`;
}

/** The folder of an installed optional peer; throws an Error naming the package when it is absent. */
export function requireOptionalPeer(name: OptionalPeer): string {
  const dir = findOptionalPeer(name);
  if (dir === undefined) throw new Error(missingPeerMessage(name));
  return dir;
}
