import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { type BodyLimits, type BodyState, bodyStream, NodeBodyReader } from './body-reader.js';
import { NodeHeaders } from './headers.js';
import { inheritLazily } from './inherit.js';

// The one builder of a Request from a Node request (`toRequest`): lazy, as srvx's NodeRequest is.

/** Decodes as `Body.text()` does: UTF-8, a BOM dropped, malformed bytes replaced. */
const UTF8 = new TextDecoder();

/** The stream of a body a reading method consumed: locked, as the platform's is once read. */
function readStream(): ReadableStream<Uint8Array> {
  const stream = new ReadableStream<Uint8Array>();
  stream.getReader();
  return stream;
}

/**
 * A `Request` for a Node request whose platform parts are built only when read: `method` and
 * `url` are plain strings, `headers` reads `rawHeaders` (headers.ts), `signal`
 * an AbortSignal created on first access, `body` a stream over the bridge's body reader (body-reader.ts). Every
 * other member builds the platform Request once and delegates to it (see inherit.ts).
 * `instanceof Request` holds. A method the platform Request refuses (TRACE) is carried as is, so
 * the store can answer it; only building the platform Request for it fails (TypeError).
 */
class NodeRequest {
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #url: string;
  readonly #state: BodyState;
  readonly #hasBody: boolean;
  readonly #limits: BodyLimits;
  #headers: NodeHeaders | undefined;
  #controller: AbortController | undefined;
  #real: Request | undefined;
  /** The body's reader, once anyone read the body (the stream or one of the reading methods). */
  #reader: NodeBodyReader | undefined;
  /** The body stream, once `body` was read (null without a body). */
  #stream: ReadableStream<Uint8Array> | null | undefined;
  /** A reading method read the body directly: its stream is a read one. */
  #direct = false;

  constructor(req: IncomingMessage, res: ServerResponse, url: string, state: BodyState, hasBody: boolean, limits: BodyLimits) {
    this.#req = req;
    this.#res = res;
    this.#url = url;
    this.#state = state;
    this.#hasBody = hasBody;
    this.#limits = limits;
  }

  get method(): string {
    return this.#req.method!;
  }

  get url(): string {
    return this.#url;
  }

  get headers(): Headers {
    return (this.#headers ??= new NodeHeaders(this.#req.rawHeaders)) as unknown as Headers;
  }

  /**
   * Aborted when the client disconnects before the response finished. The 'close' listener that
   * watches for it is added on first access, so a request nobody asks the signal of pays for
   * neither the signal nor the listener.
   */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      const res = this.#res;
      const gone = () => new DOMException('the client disconnected', 'AbortError');
      if (res.closed && !res.writableFinished) controller.abort(gone());
      // 'close' comes once per response: a plain listener, without once()'s wrapper.
      else if (!res.closed) res.on('close', () => void (res.writableFinished || controller.abort(gone())));
    }
    return this.#controller.signal;
  }

  /** The capped body as a platform ReadableStream (built on first access): reading it needs no platform Request. */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#real) return this.#real.body;
    if (this.#stream === undefined) this.#stream = this.#hasBody ? (this.#direct ? readStream() : bodyStream(this.#bodyReader())) : null;
    return this.#stream;
  }

  /** Read (or cancelled) once anyone pulled from the body, by its stream or a reading method. */
  get bodyUsed(): boolean {
    if (this.#real) return this.#real.bodyUsed;
    return this.#reader !== undefined && (this.#state.started || this.#state.cancelled);
  }

  // The reading methods read the socket straight through the body reader (as srvx's NodeRequest
  // does): no web stream, whose construction costs more than the rest of a create's own work.
  // Once the stream was built (or the platform Request), they read through it, as the platform does.

  arrayBuffer(): Promise<ArrayBuffer> {
    // bytes() owns its whole buffer (joined(), or the platform's own read).
    return this.bytes().then((bytes) => bytes.buffer);
  }

  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.bodyUsed) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    if (this.#real !== undefined || this.#stream != null) {
      try {
        return NodeRequest.real(this).bytes();
      } catch (error) {
        return Promise.reject(error); // a locked stream cannot make a Request: rejected, as the platform's read is
      }
    }
    if (!this.#hasBody) return Promise.resolve(new Uint8Array(0));
    this.#direct = true;
    return this.#bodyReader().readAll();
  }

  text(): Promise<string> {
    return this.bytes().then((bytes) => UTF8.decode(bytes));
  }

  json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text) as unknown);
  }

  /** A platform Request following this request's signal. */
  clone(): Request {
    return new Request(NodeRequest.real(this).clone(), { signal: this.signal });
  }

  #bodyReader(): NodeBodyReader {
    return (this.#reader ??= new NodeBodyReader(this.#req, this.#state, this.#limits));
  }

  /**
   * The platform Request of `self`, built once (without a signal of its own: `signal` is the
   * one), on the body stream if there is a body.
   */
  static real(self: NodeRequest): Request {
    if (self.#real === undefined) {
      const init: RequestInit & { duplex?: 'half' } = {
        method: self.method,
        headers: NodeHeaders.real(self.headers as unknown as NodeHeaders),
      };
      const body = self.body;
      if (body) {
        init.body = body;
        init.duplex = 'half';
      }
      self.#real = new Request(self.#url, init);
    }
    return self.#real;
  }
}
inheritLazily(
  NodeRequest.prototype,
  () => Request.prototype,
  (self: NodeRequest) => NodeRequest.real(self),
);

/**
 * The Request the bridge hands the fetch handler for `req` (lazy, see NodeRequest): its URL is the
 * one the platform's `Request.url` would hold (the target against the Host header's origin, or an
 * absolute-form target as sent), serialised as `new URL()` does. Undefined where the platform
 * would refuse the URL too: the bridge answers 400.
 */
export function toRequest(req: IncomingMessage, res: ServerResponse, state: BodyState, limits: BodyLimits): Request | undefined {
  const method = req.method;
  const target = req.url;
  if (method === undefined || target === undefined) return undefined;
  let host = 'localhost';
  let mayHaveBody = false;
  const raw = req.rawHeaders;
  // By length first: most fields are none of the three, and lower-casing each name costs a string.
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    switch (name.length) {
      case 4:
        if (name.toLowerCase() === 'host') host = raw[i + 1]!;
        break;
      case 14:
        if (name.toLowerCase() === 'content-length') mayHaveBody = raw[i + 1] !== '0';
        break;
      case 17:
        if (name.toLowerCase() === 'transfer-encoding') mayHaveBody = true;
        break;
    }
  }
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const url = href(target.startsWith('/') ? `${scheme}://${host}${target}` : target);
  if (url === undefined) return undefined;
  const hasBody = mayHaveBody && method !== 'GET' && method !== 'HEAD';
  return new NodeRequest(req, res, url, state, hasBody, limits) as unknown as Request;
}

/**
 * `text` as `new URL()` serialises it, or undefined where it refuses it: an origin-form target
 * against the Host, or an absolute-form one (`GET http://example.org/v1/pets`, as proxies send).
 */
function href(text: string): string | undefined {
  try {
    return new URL(text).href;
  } catch {
    return undefined;
  }
}
