import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { ApiError, ErrorCode, targetUrl } from 'petstore-router';
import { delegateMissing } from './inherit.js';

// The request side of the Node bridge, in one place: the Request the store gets (lazy: its platform
// parts built only when read), its headers read from `rawHeaders`, its body pulled from the socket,
// and the Host check every HTTP/1.1 request must pass first. The one builder of a Request from a
// Node request: `toRequest` below.

/**
 * True for an HTTP/1.1 request without a Host header, which a server must refuse with 400
 * (RFC 9112 3.2). `serve()` turns off Node's own check (`requireHostHeader`), whose 400 has an
 * empty body, so that the bridge answers it with the Error body instead. Reads `rawHeaders`, not
 * `headers`, so that the common request does not build Node's header object for this.
 */
export function lacksRequiredHost(req: IncomingMessage): boolean {
  if (req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1) return false;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') return false;
  }
  return true;
}

/** Pulls a body's chunks, as the reader of a `ReadableStream` does. */
export interface BodyReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(reason?: unknown): Promise<void>;
}

/** What the bridge needs to know about the request body once the response is ready. */
export interface BodyState {
  /** Someone started reading the body (so Node will not discard the rest by itself). */
  started: boolean;
  /** More than the bridge's `maxBodyBytes` arrived: reading stopped and the connection must close. */
  overCap: boolean;
  /** The consumer stopped reading (cancelled the reader or the stream). */
  cancelled: boolean;
}

type Waiter = { resolve: (result: ReadableStreamReadResult<Uint8Array>) => void; reject: (error: unknown) => void };

/**
 * The one reader of a Node request body in the bridge: chunks are pulled (the socket is paused
 * while nobody asks), at most `maxBytes` are read (past them reading stops, `state.overCap` is
 * set and the read fails with a 413 ApiError), and a client that leaves mid-body fails the
 * pending read instead of leaving it waiting. The web stream of `request.body` (see
 * {@link bodyStream}) reads through it.
 */
export class NodeBodyReader implements BodyReader {
  readonly #req: IncomingMessage;
  readonly #state: BodyState;
  readonly #maxBytes: number;
  #received = 0;
  #queue: Uint8Array[] = [];
  #ended = false;
  #failure: Error | undefined;
  #waiter: Waiter | undefined;
  /** Who waits for the whole body ({@link readAll}): chunks are kept as they come, unpaused. */
  #whole: { resolve: (bytes: Uint8Array<ArrayBuffer>) => void; reject: (error: unknown) => void } | undefined;

  constructor(req: IncomingMessage, state: BodyState, maxBytes: number) {
    this.#req = req;
    this.#state = state;
    this.#maxBytes = maxBytes;
  }

  read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    const next = this.#queue.shift();
    if (next !== undefined) return Promise.resolve({ done: false, value: next });
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    this.#start();
    return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
  }

  /**
   * The whole body, copied into one Uint8Array that owns its buffer (as `Body.bytes()` gives it),
   * in one promise: the reading methods of the lazy Request use it, so a body costs no promise per
   * chunk. Only on a reader nobody has read from.
   */
  readAll(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.#state.started || this.#state.cancelled) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    return new Promise((resolve, reject) => {
      this.#whole = { resolve, reject };
      this.#start();
    });
  }

  #start(): void {
    if (!this.#state.started) {
      this.#state.started = true;
      this.#req.on('data', this.#onData).on('end', this.#onEnd).on('error', this.#onError).on('close', this.#onClose);
    }
    this.#req.resume();
  }

  /** Stops reading; a read still waiting ends (done), as a cancelled stream's pending read does. */
  cancel(): Promise<void> {
    this.#state.cancelled = true;
    this.#queue = [];
    this.#finish();
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve({ done: true, value: undefined });
    return Promise.resolve();
  }

  #finish(): void {
    this.#ended = true;
    this.#req.off('data', this.#onData).off('end', this.#onEnd).off('error', this.#onError).off('close', this.#onClose);
    this.#req.pause();
  }

  #fail(error: Error): void {
    this.#failure = error;
    this.#queue = [];
    this.#finish();
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(error);
    const whole = this.#whole;
    this.#whole = undefined;
    whole?.reject(error);
  }

  readonly #onData = (chunk: Buffer) => {
    this.#received += chunk.byteLength;
    if (this.#received > this.#maxBytes) {
      this.#state.overCap = true;
      this.#fail(new ApiError(413, ErrorCode.payloadTooLarge, `the request body exceeds ${this.#maxBytes} bytes`));
      return;
    }
    if (this.#whole !== undefined) {
      this.#queue.push(chunk);
      return;
    }
    const waiter = this.#waiter;
    if (waiter === undefined) {
      this.#queue.push(chunk);
      this.#req.pause(); // nobody is reading: let the socket hold the rest
      return;
    }
    this.#waiter = undefined;
    waiter.resolve({ done: false, value: chunk });
  };

  readonly #onEnd = () => {
    // The listeners stay: after 'end' only 'close' (and perhaps 'error') can come, both ignored
    // once the body ended, and removing four listeners per request costs more than keeping them
    // for the request's last moments. Nothing to pause either: the stream has ended.
    this.#ended = true;
    const whole = this.#whole;
    if (whole !== undefined) {
      this.#whole = undefined;
      whole.resolve(joined(this.#queue));
      this.#queue = [];
      return;
    }
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.resolve({ done: true, value: undefined });
  };

  readonly #onError = (error: Error) => {
    if (!this.#ended) this.#fail(error);
  };

  // 'close' before 'end': the connection went away mid-body (Node may not emit 'error' then).
  readonly #onClose = () => {
    if (!this.#ended) this.#fail(new Error('the request closed before its body ended'));
  };
}

/**
 * `reader` as a web ReadableStream, pulled only when its consumer reads (highWaterMark 0), so an
 * unread body costs nothing and Node discards it after the response.
 */
export function bodyStream(reader: BodyReader): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Decodes as `Body.text()` does: UTF-8, a BOM dropped, malformed bytes replaced. */
const UTF8 = new TextDecoder();

/** The stream of a body a reading method consumed: locked, as the platform's is once read. */
function readStream(): ReadableStream<Uint8Array> {
  const stream = new ReadableStream<Uint8Array>();
  stream.getReader();
  return stream;
}

/** `chunks` copied into one plain Uint8Array that owns its whole buffer (Node's Buffers may be views of a larger one). */
function joined(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let size = 0;
  for (const chunk of chunks) size += chunk.byteLength;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * The `Headers` of a Node request, read from `rawHeaders` until something else than `get` or
 * `has` is asked: those two scan the raw list (the values of every field of that name joined with
 * ", ", as Headers does; Node's parser already trimmed each value); every other member builds the
 * platform Headers once and delegates to it (inherit.ts), from then on `get` and `has` included.
 * `instanceof Headers` holds. test/node-bridge.test.ts holds it to a real one.
 */
export class NodeHeaders {
  readonly #raw: string[];
  #real: Headers | undefined;

  constructor(raw: string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    if (this.#real) return this.#real.get(name);
    const lower = name.toLowerCase();
    const raw = this.#raw;
    let value: string | null = null;
    for (let i = 0; i < raw.length; i += 2) {
      const field = raw[i]!;
      if (field.length === lower.length && field.toLowerCase() === lower) value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
    }
    return value;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  /** The platform Headers of `self`, built once from its raw fields, appended one by one. */
  static real(self: NodeHeaders): Headers {
    if (self.#real === undefined) {
      const headers = new Headers();
      const raw = self.#raw;
      for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
      self.#real = headers;
    }
    return self.#real;
  }
}
Object.setPrototypeOf(NodeHeaders.prototype, Headers.prototype);
delegateMissing(NodeHeaders.prototype, Headers.prototype, (self: NodeHeaders) => NodeHeaders.real(self));

/**
 * A `Request` for a Node request whose platform parts are built only when read: `method` and
 * `url` are plain strings, `headers` reads `rawHeaders` (lazy-headers.ts), `signal`
 * an AbortSignal created on first access, `body` a stream over the bridge's body reader. Every
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
  readonly #maxBodyBytes: number;
  #headers: NodeHeaders | undefined;
  #controller: AbortController | undefined;
  #real: Request | undefined;
  /** The body's reader, once anyone read the body (the stream or one of the reading methods). */
  #reader: NodeBodyReader | undefined;
  /** The body stream, once `body` was read (null without a body). */
  #stream: ReadableStream<Uint8Array> | null | undefined;
  /** A reading method read the body directly: its stream is a read one. */
  #direct = false;

  constructor(req: IncomingMessage, res: ServerResponse, url: string, state: BodyState, hasBody: boolean, maxBodyBytes: number) {
    this.#req = req;
    this.#res = res;
    this.#url = url;
    this.#state = state;
    this.#hasBody = hasBody;
    this.#maxBodyBytes = maxBodyBytes;
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
    return (this.#reader ??= new NodeBodyReader(this.#req, this.#state, this.#maxBodyBytes));
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
Object.setPrototypeOf(NodeRequest.prototype, Request.prototype);
delegateMissing(NodeRequest.prototype, Request.prototype, (self: NodeRequest) => NodeRequest.real(self));

/**
 * The Request the bridge hands the fetch handler for `req` (lazy, see NodeRequest): its URL is the
 * one the platform's `Request.url` would hold (the target against the Host header's origin, or an
 * absolute-form target as sent), serialised as `new URL()` does. Undefined where the platform
 * would refuse the URL too: the bridge answers 400.
 */
export function toRequest(req: IncomingMessage, res: ServerResponse, state: BodyState, maxBodyBytes: number): Request | undefined {
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
  const url = target.startsWith('/') ? targetUrl(scheme, host, target)?.href : absoluteUrl(target);
  if (url === undefined) return undefined;
  const hasBody = mayHaveBody && method !== 'GET' && method !== 'HEAD';
  return new NodeRequest(req, res, url, state, hasBody, maxBodyBytes) as unknown as Request;
}

/** An absolute-form target (`GET http://example.org/v1/pets`, as proxies send) as `new URL()` serialises it. */
function absoluteUrl(target: string): string | undefined {
  try {
    return new URL(target).href;
  } catch {
    return undefined;
  }
}
