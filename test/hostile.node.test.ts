import { maxHeaderSize } from 'node:http';
import type { PetStore } from '../src/index.js';
import { sharedPGlite } from './helpers/db.js';
import type { Transport } from './helpers/harness.js';
import { nodeSocket } from './helpers/node-transport.js';
import { hostileInputSuite } from './hostile/suite.js';

/**
 * The hostile-input suite over a real socket, through `serve()` of the Node bridge.
 *
 * - Socket buffers (the client's and the kernel's, both ways) hold a few MiB of a 100 MiB upload
 *   before the 413 stops it (about 4 MiB measured); 16 MiB still proves most of it is never read.
 * - Past the body cap the server answers 413 and closes the connection while the client may still
 *   be writing, so the client can see a reset (EPIPE, ECONNRESET) instead of the answer. That is
 *   accepted only when the server did answer 413 to that very request: the answer it wrote is
 *   then checked as if the client had read it. Any other failure (a hang, a reset without a 413,
 *   a 5xx) still fails the suite.
 * - Node's parser refuses request heads over 16 KiB (414/431, tested in node-bridge.test.ts), so
 *   long query strings and headers are sized to fit.
 */
const served413 = new Map<string, { status: number; headers: [string, string][]; body: string }>();
let resetsAfter413 = 0;
let next = 0;

const nodeSocketAcceptingResetAfter413: Transport = {
  name: 'node-socket',
  async mount(store) {
    const recording: PetStore = {
      ...store,
      // Only Requests reach it (the Node bridge's); the cast drops store.fetch's URL overload.
      fetch: (async (request: Request) => {
        const response = await store.fetch(request);
        const id = request.headers.get('x-hostile-request');
        if (id && response.status === 413) {
          served413.set(id, { status: 413, headers: [...response.headers], body: await response.clone().text() });
        }
        return response;
      }) as PetStore['fetch'],
    };
    const mounted = await nodeSocket.mount(recording);
    return {
      close: mounted.close,
      async fetch(request) {
        const id = String(++next);
        const headers = new Headers(request.headers);
        headers.set('x-hostile-request', id);
        const tagged = new Request(request, { headers, duplex: 'half' } as RequestInit);
        try {
          return await mounted.fetch(tagged);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          const answered = served413.get(id);
          if (!answered || (code !== 'ECONNRESET' && code !== 'EPIPE')) throw error;
          resetsAfter413++;
          return new Response(answered.body, { status: answered.status, headers: answered.headers });
        } finally {
          served413.delete(id);
        }
      },
    };
  },
};

const hostile = hostileInputSuite(nodeSocketAcceptingResetAfter413, sharedPGlite, {
  maxPulledBytes: 16 * 1024 * 1024,
  maxHeadBytes: maxHeaderSize,
});
hostile.after(() => {
  if (resetsAfter413 > 0) console.log(`  (${resetsAfter413} upload(s) saw a reset after the server's 413)`);
});
hostile.run();
