import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import {
  type AdapterBindings,
  type BodyReader,
  type BoundUrl,
  type JsonAnswerParts,
  type StoreBindings,
  createBindings,
  targetUrl,
} from 'petstore-router';
import { type BodyState, NodeBodyReader, bodyStream, spentStream } from './body.js';
import { delegateMissing } from './inherit.js';
import { nodeJsonResponse } from './json-response.js';

/** A reader of an empty body. */
const EMPTY: BodyReader = {
  read: () => Promise.resolve({ done: true, value: undefined }),
  cancel: () => Promise.resolve(),
};

/**
 * A `Request` for a Node request whose platform parts are built only when read: `method` and
 * `url` are plain strings, `headers` a Headers filled from `rawHeaders` on first access, `signal`
 * an AbortSignal created on first access, `body` a stream over the bridge's body reader. Every
 * other member builds the platform Request once and delegates to it (see inherit.ts).
 * `instanceof Request` holds. A method the platform Request refuses (TRACE) is carried as is, so
 * the store can answer it; only building the platform Request for it fails (TypeError).
 */
class NodeRequest {
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #url: BoundUrl;
  readonly #state: BodyState;
  readonly #hasBody: boolean;
  readonly #maxBodyBytes: number;
  #headers: Headers | undefined;
  #controller: AbortController | undefined;
  #real: Request | undefined;
  /** The body stream, once `body` was read (null without a body). */
  #stream: ReadableStream<Uint8Array> | null | undefined;
  /** The body reader went to the store through the bindings. */
  #readerTaken = false;

  constructor(req: IncomingMessage, res: ServerResponse, url: BoundUrl, state: BodyState, hasBody: boolean, maxBodyBytes: number) {
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
    return this.#url.href;
  }

  get headers(): Headers {
    return (this.#headers ??= headersOf(this.#req.rawHeaders));
  }

  /**
   * Aborted when the client disconnects before the response finished. The 'close' listener that
   * watches for it is added on first access, so a request nobody asks the signal of (every
   * request the store serves through its bindings) pays for neither the signal nor the listener.
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

  /** The capped body stream itself: reading a body needs no platform Request. */
  get body(): ReadableStream<Uint8Array> | null {
    return this.#real ? this.#real.body : this.#bodyStream();
  }

  /** Read (or cancelled) once anyone pulled from the stream, or the store took the reader. */
  get bodyUsed(): boolean {
    if (this.#real) return this.#real.bodyUsed;
    if (this.#readerTaken) return true;
    return this.#stream != null && (this.#state.started || this.#state.cancelled);
  }

  /** A platform Request following this request's signal. */
  clone(): Request {
    return new Request(NodeRequest.real(this).clone(), { signal: this.signal });
  }

  #bodyStream(): ReadableStream<Uint8Array> | null {
    if (this.#stream === undefined) {
      this.#stream = this.#readerTaken
        ? spentStream()
        : this.#hasBody
          ? bodyStream(new NodeBodyReader(this.#req, this.#state, this.#maxBodyBytes))
          : null;
    }
    return this.#stream;
  }

  /**
   * The platform Request of `self`, built once (without a signal of its own: `signal` is the
   * one), on the body stream if there is a body.
   */
  static real(self: NodeRequest): Request {
    if (self.#real === undefined) {
      const init: RequestInit & { duplex?: 'half' } = { method: self.method, headers: self.headers };
      const body = self.#bodyStream();
      if (body) {
        init.body = body;
        init.duplex = 'half';
      }
      self.#real = new Request(self.#url.href, init);
    }
    return self.#real;
  }

  /**
   * `headers.get(name)` for a lower-case `name`, from `rawHeaders`: the values of every field of
   * that name joined with ", " (as Headers does; Node's parser already trimmed each value).
   */
  static header(self: NodeRequest, name: string): string | null {
    if (self.#headers) return self.#headers.get(name);
    const raw = self.#req.rawHeaders;
    let value: string | null = null;
    for (let i = 0; i < raw.length; i += 2) {
      const field = raw[i]!;
      if (field.length === name.length && field.toLowerCase() === name) value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
    }
    return value;
  }

  /** The body reader for the store; undefined once the body stream was handed out. */
  static reader(self: NodeRequest): BodyReader | undefined {
    if (self.#real || self.#stream !== undefined || self.#readerTaken) return undefined;
    if (!self.#hasBody) return EMPTY;
    self.#readerTaken = true;
    return new NodeBodyReader(self.#req, self.#state, self.#maxBodyBytes);
  }

  static urlOf(self: NodeRequest): BoundUrl {
    return self.#url;
  }
}
Object.setPrototypeOf(NodeRequest.prototype, Request.prototype);
delegateMissing(NodeRequest.prototype, Request.prototype, NodeRequest.real);

/** What this bridge offers the store for one request (src/bindings.ts). */
class NodeBindings implements AdapterBindings {
  readonly #request: NodeRequest;
  readonly url: BoundUrl;
  constructor(request: NodeRequest) {
    this.#request = request;
    this.url = NodeRequest.urlOf(request);
  }
  header(name: string): string | null {
    return NodeRequest.header(this.#request, name);
  }
  body(): BodyReader | undefined {
    return NodeRequest.reader(this.#request);
  }
  jsonResponse(answer: JsonAnswerParts): Response {
    return nodeJsonResponse(answer);
  }
}

/**
 * The request the bridge hands the fetch handler, with its bindings; undefined when only the
 * eager path can build it faithfully (an absolute-form target, a Host that does not make a URL):
 * the caller then uses `toRequest`, which answers such requests 400.
 */
export function toLazyRequest(
  req: IncomingMessage,
  res: ServerResponse,
  state: BodyState,
  maxBodyBytes: number,
): { request: Request; bindings: StoreBindings } | undefined {
  const method = req.method;
  const target = req.url;
  if (method === undefined || target === undefined || !target.startsWith('/')) return undefined;
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
  // What the platform's Request.url would be (the URL serialised after parsing); undefined where
  // it would refuse it too: the eager path answers 400.
  const url = targetUrl(scheme, host, target);
  if (url === undefined) return undefined;
  const hasBody = mayHaveBody && method !== 'GET' && method !== 'HEAD';
  const lazy = new NodeRequest(req, res, url, state, hasBody, maxBodyBytes);
  const request = lazy as unknown as Request;
  return { request, bindings: createBindings(request, new NodeBindings(lazy)) };
}

/** Headers from rawHeaders, appended one by one (several Authorization headers stay `a, b`). */
function headersOf(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}
