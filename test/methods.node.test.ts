// Every method token Node's HTTP parser accepts (CONNECT aside: Node hands it to 'connect', not to
// the request handler) reaches the store through the real Node server as a well-formed request:
// 401 without a valid key, and with one 405 + Allow where the method is not served. Undici's
// Request refuses TRACE (a "forbidden method"), so the bridge must carry it without one.
import { METHODS } from 'node:http';
import { connect } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPetStore } from 'petstore-router';
import { serve } from '../adapters/node.js';
import { sharedPGlite } from './helpers/db.js';
import { KEY } from './helpers/harness.js';

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** One raw HTTP/1.1 request; the answer as the server wrote it (it closes the connection). */
function send(port: number, method: string, authorization?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => reject(new Error(`${method}: no complete answer`)), 5_000);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    const auth = authorization === undefined ? '' : `Authorization: ${authorization}\r\n`;
    socket.write(`${method} /v1/pets HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`);
  });
}

const served = new Set(['GET', 'HEAD', 'POST']);
const unserved = METHODS.filter((m) => m !== 'CONNECT' && !served.has(m));

test('every other method token: 401 without a valid key, 405 + Allow with one', async () => {
  assert.ok(unserved.includes('TRACE') && unserved.length > 20, `Node's methods: ${METHODS.join(' ')}`);
  const store = createPetStore({ db: await sharedPGlite(), keys: [KEY] });
  const server = await serve(store, { port: 0, onError: () => {} });
  try {
    const wrong: string[] = [];
    for (const method of unserved) {
      const [anonymous, badKey, keyed] = await Promise.all([
        send(server.port, method),
        send(server.port, method, 'Bearer not-the-key'),
        send(server.port, method, `Bearer ${KEY}`),
      ]);
      const expect = (a: Answer, status: number, what: string) => {
        const body = a.body === '' ? undefined : (JSON.parse(a.body) as { status?: number });
        if (a.status !== status || body?.status !== status) wrong.push(`${method} ${what}: ${a.status} ${a.body}`);
      };
      expect(anonymous, 401, 'without a key');
      expect(badKey, 401, 'with a wrong key');
      expect(keyed, 405, 'with the key');
      if (keyed.headers.get('allow') !== 'GET, HEAD, POST') wrong.push(`${method}: Allow ${keyed.headers.get('allow')}`);
    }
    assert.equal(wrong, []);
  } finally {
    await server.close();
  }
});

test.run();
