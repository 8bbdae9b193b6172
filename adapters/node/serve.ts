import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DEFAULT_HEADERS_TIMEOUT_MS, ErrorCode, SERVE_OPTION_NAMES, checkServeOptions, nodeHandlerOptionsOf } from 'petstore-router';
import { DEFAULT_HOST } from '../listen-host.js';
import { nodeHttp } from '../node-http.js';
import { rawErrorResponse } from './errors.js';
import { type FetchHandler, type NodeHandlerOptions, createNodeHandler } from './handler.js';

/** Options of {@link serve}. Times are in milliseconds. */
export interface ServeOptions extends NodeHandlerOptions {
  /** Port to listen on; `0` picks a free one. @default 8080 */
  port?: number;
  /** Address to listen on (`'0.0.0.0'` for every IPv4 interface). @default '127.0.0.1' */
  host?: string;
  /** Drop a connection whose request headers have not all arrived in this time (408). @default 10_000 */
  headersTimeout?: number;
  /** Drop a connection whose whole request has not arrived in this time (408); at least headersTimeout. @default 30_000 */
  requestTimeout?: number;
  /** Close an idle keep-alive connection after this time. @default 5_000 */
  keepAliveTimeout?: number;
  /** `close()` waits this long for in-flight requests, then destroys the remaining sockets. @default 10_000 */
  shutdownTimeout?: number;
}

// SERVE_OPTION_NAMES names exactly the options above (a name missing on either side fails to compile).
type Named = (typeof SERVE_OPTION_NAMES)[number];
const optionNamesMatch: [Named, keyof ServeOptions] extends [keyof ServeOptions, Named] ? true : never = true;
void optionNamesMatch;

/** A running server, from {@link serve}. */
export interface Served {
  server: Server;
  /** `http://HOST:PORT`, without the store's base path. */
  url: string;
  /** The port actually bound (useful with `port: 0`). */
  port: number;
  /** Stops accepting, lets in-flight requests finish (bounded by shutdownTimeout), then resolves. */
  close(): Promise<void>;
}

/**
 * Serves a fetch handler with `node:http`, with timeouts against slow clients and Error bodies for
 * everything Node's HTTP parser refuses. Resolves once the server accepts connections.
 *
 * @example
 * ```ts
 * import { createPetStore } from 'petstore-router'
 * import { createPGliteDatabase } from 'petstore-router/pglite'
 * import { serve } from 'petstore-router/node'
 *
 * const store = createPetStore({ db: await createPGliteDatabase(), keys: [process.env.API_KEY!] })
 * const server = await serve(store, { port: 8080 })
 * console.log(`listening on ${server.url}${store.basePath}`)
 * process.once('SIGTERM', () => server.close())
 * ```
 */
export async function serve(handler: FetchHandler, options: ServeOptions = {}): Promise<Served> {
  checkServeOptions(options);
  const host = options.host ?? DEFAULT_HOST;
  const headersTimeout = options.headersTimeout ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeout = options.requestTimeout ?? Math.max(30_000, headersTimeout);
  const shutdownTimeout = options.shutdownTimeout ?? 10_000;
  const server = nodeHttp.createServer({
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: options.keepAliveTimeout ?? 5_000,
    // Node checks the two timeouts above only every 30 s by default: a 10 s limit would let a
    // slow client hold a connection for up to 40 s.
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4))),
    // Node's own 400 to an HTTP/1.1 request without Host has an empty body: the bridge answers it.
    requireHostHeader: false,
  });

  const listener = createNodeHandler(handler, nodeHandlerOptionsOf(options));
  // Each open connection with its latest response, so a parser error or the shutdown can tell
  // whether an answer is under way on it (from the public 'connection' and 'request' events: no
  // socket internals). Connections, not requests, are the keys: a Set that every request entered
  // and left kept each in-flight response reachable from a long-lived table, and under load V8 then
  // promoted each request's objects to the old generation: more peak RSS and frequent major GCs
  // (docs/performance.md). Here a request only replaces its connection's entry (a plain Map: a
  // WeakMap would cost the garbage collector ephemeron work for every response), and the entry
  // goes with the connection.
  const connections = new Map<Socket, ServerResponse | undefined>();
  server.on('connection', (socket: Socket) => {
    connections.set(socket, undefined);
    socket.once('close', () => connections.delete(socket));
  });
  let closing: Promise<void> | undefined;
  // While shutting down, a connection is idle once its response is done: let it go then.
  const releaseWhenDone = (res: ServerResponse) => res.once('close', () => setImmediate(() => server.closeIdleConnections()));
  server.on('request', (req, res) => {
    connections.set(req.socket, res); // every socket came through 'connection' first
    if (closing) {
      res.setHeader('connection', 'close');
      releaseWhenDone(res);
    }
    listener(req, res);
  });
  server.on('clientError', (error: Error & { code?: string; rawPacket?: Buffer }, socket: Socket) => {
    const answer = parserErrorAnswer(error, nodeHttp.maxHeaderSize);
    // A response already under way cannot get a second status line: drop the connection.
    const current = connections.get(socket);
    if (!answer || !socket.writable || (current?.headersSent && !current.writableFinished)) {
      socket.destroy();
      return;
    }
    socket.write(rawErrorResponse(answer.status, answer.code, answer.message));
    socket.destroySoon(); // end, then destroy once flushed, even if the client never closes its side
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8080, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => server.closeAllConnections(), shutdownTimeout);
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      // Answers still to be written end their connection; idle keep-alive connections go now.
      for (const res of connections.values()) {
        if (!res || res.writableFinished) continue;
        if (!res.headersSent) res.setHeader('connection', 'close');
        releaseWhenDone(res);
      }
      server.closeIdleConnections();
    });
    return closing;
  };
  return { server, url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, port, close };
}

/**
 * The answer to a request Node's parser refused. Node reports a too-long request line as a header
 * overflow too; when the request line alone is most of the limit, the URI is the culprit: 414.
 */
function parserErrorAnswer(error: { code?: string; rawPacket?: Buffer }, maxHeaderSize: number) {
  const code = error.code ?? '';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, code: ErrorCode.requestTimeout, message: 'the request did not arrive in time' };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    const packet = error.rawPacket;
    const lineEnd = packet ? packet.indexOf('\r\n') : -1;
    const lineLength = packet ? (lineEnd === -1 ? packet.length : lineEnd) : 0;
    if (packet && /^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1')) && lineLength >= maxHeaderSize / 2) {
      return { status: 414, code: ErrorCode.uriTooLong, message: 'the request URI is too long' };
    }
    return { status: 431, code: ErrorCode.headerFieldsTooLarge, message: 'the request headers are too large' };
  }
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return { status: 413, code: ErrorCode.payloadTooLarge, message: 'the request chunk extensions are too large' };
  }
  if (code.startsWith('HPE_')) return { status: 400, code: ErrorCode.invalidRequest, message: 'malformed HTTP request' };
  return undefined; // a socket error (ECONNRESET, ...): nobody to answer
}
