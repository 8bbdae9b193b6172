import { Agent, request as httpRequest } from 'node:http';
import { serve } from '../../adapters/node.js';
import type { Transport } from './harness.js';

/**
 * Serves the store with the Node bridge on 127.0.0.1:0 and sends each Request over a real socket
 * with node:http (keep-alive, like a real client). The Host header stays the Request's own, so
 * absolute URLs the store builds (Link headers) are the same as in-process. Request bodies are
 * streamed (chunked) as they come, so the bridge's streaming cap is exercised.
 */
export const nodeSocket: Transport = {
  name: 'node-socket',
  async mount(store) {
    const served = await serve(store, { port: 0, host: '127.0.0.1' });
    const agent = new Agent({ keepAlive: true });
    const fetch = (request: Request) => send(request, served.port, agent);
    return {
      fetch,
      async close() {
        agent.destroy();
        await served.close();
      },
    };
  },
};

/** Sends `request` over node:http to `host:port`, its Host header kept (also used for a remote server, test/workers). */
export function send(request: Request, port: number, agent: Agent, host = '127.0.0.1'): Promise<Response> {
  const url = new URL(request.url);
  const headers: [string, string][] = [['host', url.host]];
  for (const pair of request.headers) headers.push(pair);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host, port, method: request.method, path: url.pathname + url.search, headers: headers.flat(), agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          const status = res.statusCode!;
          const nullBody = request.method === 'HEAD' || status === 204 || status === 304;
          resolve(
            new Response(nullBody ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers: responseHeaders }),
          );
        });
      },
    );
    req.on('error', reject);
    if (request.body === null) {
      req.end();
      return;
    }
    pump(request.body, req).catch((error) => req.destroy(error));
  });
}

async function pump(body: ReadableStream<Uint8Array>, req: import('node:http').ClientRequest): Promise<void> {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (req.destroyed) return void reader.cancel();
    if (!req.write(value)) await new Promise((r) => req.once('drain', r));
  }
  req.end();
}
