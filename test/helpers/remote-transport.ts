import { Agent } from 'node:http';
import type { Transport } from './harness.js';
import { send } from './node-transport.js';

/**
 * Sends every request to a server already running at `baseUrl` (a Worker under `wrangler dev`),
 * whatever store the test made: that server's store is configured on its own, so a behavioural run
 * through this transport says `fixedStore` (test/behaviour/context.ts). The Host header stays the
 * Request's own, as with the Node bridge.
 */
export function remoteTransport(baseUrl: string): Transport {
  const target = new URL(baseUrl);
  return {
    name: `remote ${target.host}`,
    mount() {
      const agent = new Agent({ keepAlive: true });
      return Promise.resolve({
        fetch: (request: Request) => send(request, Number(target.port), agent, target.hostname),
        close: () => Promise.resolve(agent.destroy()).then(() => undefined),
      });
    },
  };
}
