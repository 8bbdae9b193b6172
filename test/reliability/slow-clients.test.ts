import { type Socket, connect } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { percentile, send, sleep, within } from './helpers/load.js';
import { assertNoKeyInLogs, startServer, stopGracefully, tempDataDir } from './helpers/server.js';

/**
 * 200 connections that send their request headers one line every 500 ms, never finishing them
 * (slowloris). The standalone server keeps answering normal requests quickly, and drops each
 * trickling connection with a 408 Error once its 10 s header timeout has passed.
 */
test('200 connections trickling headers: normal requests still served quickly; they are dropped by the header timeout', async () => {
  const server = await startServer(['--data-dir', tempDataDir()]);
  const { port } = new URL(server.url);
  const sockets: { socket: Socket; answer: string; closedAfter?: number }[] = [];
  let trickle: NodeJS.Timeout | undefined;
  try {
    const opened = performance.now();
    await Promise.all(
      Array.from(
        { length: 200 },
        () =>
          new Promise<void>((resolve, reject) => {
            const entry = { socket: connect(Number(port), '127.0.0.1'), answer: '' } as (typeof sockets)[number];
            entry.socket.setEncoding('utf8').on('data', (c: string) => (entry.answer += c));
            entry.socket.on('error', () => {});
            entry.socket.once('close', () => (entry.closedAfter = performance.now() - opened));
            entry.socket.once('connect', () => {
              entry.socket.write(`GET /v1/pets HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`);
              resolve();
            });
            entry.socket.once('error', reject);
            sockets.push(entry);
          }),
      ),
    );
    let line = 0;
    trickle = setInterval(() => {
      line++;
      for (const { socket } of sockets) if (!socket.destroyed) socket.write(`x-slow-${line}: ${line}\r\n`);
    }, 500);

    // Meanwhile: 40 normal requests, one after the other, each on a new connection.
    const latencies: number[] = [];
    for (let i = 0; i < 40; i++) {
      const a = await send(`${server.url}/pets?limit=5`, { timeoutMs: 5_000 });
      assert.is(a.status, 200);
      latencies.push(a.ms);
      await sleep(100);
    }
    const stillOpen = sockets.filter((s) => s.closedAfter === undefined).length;
    await within(
      (async () => {
        while (sockets.some((s) => s.closedAfter === undefined)) await sleep(100);
      })(),
      20_000,
      'dropping the trickling connections',
    );
    const dropped = sockets.map((s) => s.closedAfter!);
    console.log(
      `  normal requests: p50 ${Math.round(percentile(latencies, 50))} ms, max ${Math.round(Math.max(...latencies))} ms ` +
        `(${stillOpen} trickling connections open meanwhile); trickling connections dropped after ${Math.round(Math.min(...dropped))}-${Math.round(Math.max(...dropped))} ms`,
    );
    assert.is(stillOpen, 200, 'the slow clients were all connected while the normal requests ran');
    assert.ok(Math.max(...latencies) < 1_000, `a normal request took ${Math.round(Math.max(...latencies))} ms`);
    assert.ok(Math.min(...dropped) >= 9_000, 'not dropped before the 10 s header timeout');
    assert.ok(Math.max(...dropped) < 15_000, `dropped after up to ${Math.round(Math.max(...dropped))} ms`);
    for (const { answer } of sockets) {
      assert.match(answer, /^HTTP\/1\.1 408 /);
      assert.match(answer, /"code":"request_timeout"/);
    }
    assert.is((await stopGracefully(server)).code, 0);
    assertNoKeyInLogs(server);
  } finally {
    clearInterval(trickle);
    for (const { socket } of sockets) socket.destroy();
    server.child.kill('SIGKILL');
  }
});

test.run();
