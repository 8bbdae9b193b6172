import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { ApiError, ErrorCode, MAX_BODY_BYTES } from 'petstore-router';

/** What the bridge needs to know about the request body once the response is ready. */
export interface BodyState {
  /** Someone started reading the body (so Node will not discard the rest by itself). */
  started: boolean;
  /** More than MAX_BODY_BYTES arrived: reading stopped and the connection must close. */
  overCap: boolean;
  /** The consumer cancelled the body stream. */
  cancelled?: boolean;
}

/**
 * A web Request for a Node request, without buffering: headers from `rawHeaders`, the body as a
 * pull-driven stream capped at MAX_BODY_BYTES, and `signal` aborted by the caller on disconnect.
 * Throws a TypeError when the target, a header or the method cannot be represented (answered 400).
 */
export function toRequest(req: IncomingMessage, signal: AbortSignal, state: BodyState): Request {
  // Headers from rawHeaders, appended one by one: `req.headers` keeps only the first of several
  // Authorization headers, and the store must see them all (`a, b`) to answer 401.
  const raw = req.rawHeaders;
  const headers = new Headers();
  let host = 'localhost';
  let mayHaveBody = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    headers.append(name, value);
    const lower = name.toLowerCase();
    if (lower === 'host') host = value;
    else if (lower === 'content-length') mayHaveBody = value !== '0';
    else if (lower === 'transfer-encoding') mayHaveBody = true;
  }
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  // Origin-form targets ('/v1/pets') get the Host header's origin; absolute-form ones are used as sent.
  const url = target.startsWith('/') ? `${scheme}://${host}${target}` : target;
  const hasBody = mayHaveBody && method !== 'GET' && method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (hasBody) {
    init.body = bodyStream(req, state);
    init.duplex = 'half'; // required by Node's Request for a stream body
  }
  return new Request(url, init);
}

function tooLarge(): ApiError {
  return new ApiError(413, ErrorCode.payloadTooLarge, `the request body exceeds ${MAX_BODY_BYTES} bytes`);
}

/**
 * The IncomingMessage as a ReadableStream, read only when the consumer pulls (highWaterMark 0),
 * so an unread body costs nothing and Node discards it after the response. Past MAX_BODY_BYTES
 * reading stops (the store, counting too, answers 413; any other consumer reading on gets a 413
 * ApiError): memory stays bounded whether or not Content-Length was sent.
 */
export function bodyStream(req: IncomingMessage, state: BodyState): ReadableStream<Uint8Array> {
  let received = 0;
  let finished = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stop = () => {
    finished = true;
    req.off('data', onData).off('end', onEnd).off('error', onError);
    req.pause();
  };
  const onData = (chunk: Buffer) => {
    if (finished) return;
    received += chunk.byteLength;
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (received > MAX_BODY_BYTES) {
      // The chunk that crosses the cap is delivered (at most 64 KiB more) so the store counts
      // past the cap and answers 413 itself; nothing more is read from the socket.
      state.overCap = true;
      stop();
    } else if ((controller.desiredSize ?? 0) <= 0) {
      req.pause();
    }
  };
  const onEnd = () => {
    if (finished) return;
    stop();
    controller.close();
  };
  const onError = (error: Error) => {
    if (finished) return;
    stop();
    controller.error(error);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        // A consumer reading on past the cap (not the store, which stops) gets a 413 error.
        if (state.overCap) return controller.error(tooLarge());
        if (!state.started) {
          state.started = true;
          req.on('data', onData).on('end', onEnd).on('error', onError);
        }
        req.resume();
      },
      cancel() {
        state.cancelled = true;
        stop();
      },
    },
    { highWaterMark: 0 },
  );
}
