import { connect } from 'node:net';

/** Pause between the parts of a request sent in parts (see {@link rawExchange}). */
const PART_PAUSE_MS = 30;

/**
 * Sends raw bytes to 127.0.0.1:`port` and returns everything the server sent until it closed the
 * connection (as latin1 text). For requests an HTTP client would never send (no Host, a broken
 * request line), or sent in parts (an array: each part written 30 ms after the one before, so the
 * server has started on what came first). Rejects when the server keeps the connection open past
 * `keepOpenMs`.
 */
export function rawExchange(port: number, text: string | Buffer | readonly string[], keepOpenMs = 5_000): Promise<string> {
  const parts = typeof text === 'string' || Buffer.isBuffer(text) ? [text] : text;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('the server did not close the connection'));
    }, keepOpenMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {}); // a reset after the answer is fine
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    parts.forEach((part, i) => {
      if (i === 0) socket.write(part);
      else setTimeout(() => socket.destroyed || socket.write(part), i * PART_PAUSE_MS);
    });
  });
}
