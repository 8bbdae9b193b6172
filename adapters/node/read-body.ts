import type { IncomingMessage } from 'node:http';
import type { BodyState } from './request.js';

/**
 * Reads a Node request body into one buffer, for a consumer that wants the bytes at once (the
 * store's JSON bodies): no web ReadableStream and no AbortSignal in between, which on Node 20 were
 * ~13% of a `POST /pets`'s server CPU (docs/performance.md).
 *
 * Resolves to the bytes; to `null` as soon as more than `maxBytes` arrived (reading stops there
 * and `state.overCap` tells the bridge to close the connection, so memory stays bounded whatever
 * the client sends); rejects when the body cannot be read to its end (the client left, a broken
 * chunked encoding).
 */
export function readBody(req: IncomingMessage, state: BodyState, maxBytes: number): Promise<Uint8Array | null> {
  state.started = true;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        state.overCap = true;
        settle();
        req.pause();
        resolve(null);
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = () => {
      settle();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    // 'close' before 'end': the connection went away mid-body (Node may not emit 'error' then).
    const onClose = () => {
      settle();
      reject(new Error('the request closed before its body ended'));
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
