import { connect } from 'node:net';

/**
 * Sends raw bytes to 127.0.0.1:`port` and returns everything the server sent until it closed the
 * connection (as latin1 text). For requests an HTTP client would never send (no Host, a broken
 * request line). Rejects when the server keeps the connection open past `keepOpenMs`.
 */
export function rawExchange(port: number, text: string | Buffer, keepOpenMs = 5_000): Promise<string> {
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
    socket.write(text);
  });
}
