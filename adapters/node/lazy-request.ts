import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { MAX_BODY_BYTES, targetUrl } from 'petstore-router';
import { readBody } from './read-body.js';
import { type BodyState, bodyStream } from './request.js';

/** What `targetUrl` gives: the URL's parts and its `href`. */
type ParsedUrl = NonNullable<ReturnType<typeof targetUrl>>;

/**
 * Registered by the store (src/http/request-url.ts): the parts of `url`, built here once, so the
 * store neither parses nor checks the URL again.
 */
const PARSED_URL = Symbol.for('petstore-router.url');

/** Registered by the store (src/http/respond.ts): we accept its lazy JSON responses. */
const LAZY_RESPONSE_OK = Symbol.for('petstore-router.lazyResponse');

/**
 * Registered by the store (src/http/body.ts): reads the whole body as bytes, capped, without a web
 * stream or a signal (see read-body.ts). Resolves to null past the cap.
 */
const READ_BODY = Symbol.for('petstore-router.readBody');

/**
 * Registered by the store (src/http/header.ts): one header field's value as `Headers.get` gives it,
 * read from `rawHeaders` without building a Headers.
 */
const HEADER = Symbol.for('petstore-router.header');

/** Methods undici's Request refuses (TypeError): those take the eager path, answered 400 as before. */
const FAST_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * A `Request` for a Node request whose parts are built only when read: `method` and `url` are
 * plain strings, `headers` a Headers filled from `rawHeaders` on first access, `signal` an
 * AbortSignal created on first access (on Node 20 creating a signal costs ~3 us, a Request ~5 us,
 * a Headers ~1 us). Reading the body or anything else builds the real undici Request once and
 * delegates to it. `instanceof Request` holds. Measured in docs/performance.md.
 */
class NodeRequest {
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #url: ParsedUrl;
  readonly #state: BodyState;
  readonly #hasBody: boolean;
  #headers: Headers | undefined;
  #controller: AbortController | undefined;
  #real: Request | undefined;
  /** The body stream, once `body` was read (null without a body). */
  #body: ReadableStream<Uint8Array> | null | undefined;
  /** The body was read as bytes through READ_BODY. */
  #taken = false;

  constructor(req: IncomingMessage, res: ServerResponse, url: ParsedUrl, state: BodyState, hasBody: boolean) {
    this.#req = req;
    this.#res = res;
    this.#url = url;
    this.#state = state;
    this.#hasBody = hasBody;
  }

  get method(): string {
    return this.#req.method!;
  }

  get url(): string {
    return this.#url.href;
  }

  get [PARSED_URL](): ParsedUrl {
    return this.#url;
  }

  /** This bridge writes the store's lazy JSON answers itself (see writeResponse). */
  get [LAZY_RESPONSE_OK](): boolean {
    return true;
  }

  get headers(): Headers {
    return (this.#headers ??= headersOf(this.#req.rawHeaders));
  }

  /**
   * `headers.get(name)` for a lower-case `name`, from `rawHeaders`: the values of every field of
   * that name joined with ", " (as Headers does; Node's parser already trimmed each value).
   */
  [HEADER](name: string): string | null {
    if (this.#headers) return this.#headers.get(name);
    const raw = this.#req.rawHeaders;
    let value: string | null = null;
    for (let i = 0; i < raw.length; i += 2) {
      const field = raw[i]!;
      if (field.length === name.length && field.toLowerCase() === name) value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
    }
    return value;
  }

  /**
   * Aborted when the client disconnects before the response finished. The 'close' listener that
   * watches for it is added here, on first access, so a request nobody asks the signal of (every
   * request the store serves, bodies included) pays for neither the signal nor the listener.
   */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      const res = this.#res;
      const gone = () => new DOMException('the client disconnected', 'AbortError');
      if (res.closed && !res.writableFinished) controller.abort(gone());
      else if (!res.closed) res.once('close', () => void (res.writableFinished || controller.abort(gone())));
    }
    return this.#controller.signal;
  }

  /**
   * The undici Request, built once (without a signal of its own: `signal` above is the one), on
   * the body stream handed out by `body` if there was one (undici refuses it if already read).
   */
  #request(): Request {
    if (this.#real === undefined) {
      const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers: this.headers };
      const body = this.#stream();
      if (body) {
        init.body = body;
        init.duplex = 'half';
      }
      this.#real = new Request(this.#url.href, init);
    }
    return this.#real;
  }

  #stream(): ReadableStream<Uint8Array> | null {
    return (this.#body ??= this.#taken ? spentStream() : this.#hasBody ? bodyStream(this.#req, this.#state) : null);
  }

  /**
   * The whole body as bytes, capped at `maxBytes` (and at the bridge's MAX_BODY_BYTES): null past
   * the cap. Undefined when the body stream was already handed out: the caller reads that instead.
   */
  [READ_BODY](maxBytes: number): Promise<Uint8Array | null> | undefined {
    if (this.#real || this.#body !== undefined || this.#taken) return undefined;
    if (!this.#hasBody) return Promise.resolve(new Uint8Array(0));
    this.#taken = true;
    return readBody(this.#req, this.#state, Math.min(maxBytes, MAX_BODY_BYTES));
  }

  /** The capped body stream itself: reading a POST body needs no undici Request (~5 us). */
  get body(): ReadableStream<Uint8Array> | null {
    return this.#real ? this.#real.body : this.#stream();
  }
  /** Read (or cancelled) once anyone pulled from the stream: `state.started` is set on the first pull. */
  get bodyUsed(): boolean {
    if (this.#real) return this.#real.bodyUsed;
    if (this.#taken) return true;
    return this.#body != null && (this.#state.started || this.#state.cancelled === true);
  }
  get cache() {
    return this.#request().cache;
  }
  get credentials() {
    return this.#request().credentials;
  }
  get destination() {
    return this.#request().destination;
  }
  get integrity() {
    return this.#request().integrity;
  }
  get keepalive() {
    return this.#request().keepalive;
  }
  get mode() {
    return this.#request().mode;
  }
  get redirect() {
    return this.#request().redirect;
  }
  get referrer() {
    return this.#request().referrer;
  }
  get referrerPolicy() {
    return this.#request().referrerPolicy;
  }
  get duplex() {
    return (this.#request() as Request & { duplex?: string }).duplex;
  }
  arrayBuffer() {
    return this.#request().arrayBuffer();
  }
  blob() {
    return this.#request().blob();
  }
  formData() {
    return this.#request().formData();
  }
  json() {
    return this.#request().json();
  }
  text() {
    return this.#request().text();
  }
  bytes() {
    return (this.#request() as Request & { bytes(): Promise<Uint8Array> }).bytes();
  }
  /** A real Request following this request's signal. */
  clone(): Request {
    return new Request(this.#request().clone(), { signal: this.signal });
  }
}
Object.setPrototypeOf(NodeRequest.prototype, Request.prototype);


/**
 * The request the bridge hands the fetch handler, or undefined when only the eager path can
 * build it faithfully (a method undici refuses, an absolute-form target, a Host that does not make
 * a URL): the caller then uses `toRequest`, which answers such requests 400 as before.
 */
export function toLazyRequest(req: IncomingMessage, res: ServerResponse, state: BodyState): Request | undefined {
  const method = req.method;
  const target = req.url;
  if (method === undefined || !FAST_METHODS.has(method) || target === undefined || !target.startsWith('/')) return undefined;
  let host = 'localhost';
  let mayHaveBody = false;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const lower = raw[i]!.toLowerCase();
    if (lower === 'host') host = raw[i + 1]!;
    else if (lower === 'content-length') mayHaveBody = raw[i + 1] !== '0';
    else if (lower === 'transfer-encoding') mayHaveBody = true;
  }
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  // What undici's Request.url would be (the URL serialised after parsing); undefined where undici
  // would refuse it too: the eager path answers 400.
  const url = targetUrl(scheme, host, target);
  if (url === undefined) return undefined;
  const hasBody = mayHaveBody && method !== 'GET' && method !== 'HEAD';
  return new NodeRequest(req, res, url, state, hasBody) as unknown as Request;
}

/** What `body` is once the body was read as bytes: a stream that fails as undici's would. */
function spentStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.error(new TypeError('Body is unusable: Body has already been read'));
    },
  });
}

/** Headers from rawHeaders, appended one by one (several Authorization headers stay `a, b`). */
function headersOf(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}
