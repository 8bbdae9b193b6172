import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { targetUrl } from 'petstore-router';
import { type BodyState, NodeBodyReader, bodyStream } from './body.js';
import { delegateMissing } from './inherit.js';
import { NodeHeaders } from './lazy-headers.js';

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
  /** The body stream, once `body` was read (null without a body). */
  #stream: ReadableStream<Uint8Array> | null | undefined;

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
      else if (!res.closed) res.once('close', () => void (res.writableFinished || controller.abort(gone())));
    }
    return this.#controller.signal;
  }

  /** The capped body stream itself: reading a body needs no platform Request. */
  get body(): ReadableStream<Uint8Array> | null {
    return this.#real ? this.#real.body : this.#bodyStream();
  }

  /** Read (or cancelled) once anyone pulled from the stream. */
  get bodyUsed(): boolean {
    if (this.#real) return this.#real.bodyUsed;
    return this.#stream != null && (this.#state.started || this.#state.cancelled);
  }

  /** A platform Request following this request's signal. */
  clone(): Request {
    return new Request(NodeRequest.real(this).clone(), { signal: this.signal });
  }

  #bodyStream(): ReadableStream<Uint8Array> | null {
    if (this.#stream === undefined) {
      this.#stream = this.#hasBody ? bodyStream(new NodeBodyReader(this.#req, this.#state, this.#maxBodyBytes)) : null;
    }
    return this.#stream;
  }

  /**
   * The platform Request of `self`, built once (without a signal of its own: `signal` is the
   * one), on the body stream if there is a body.
   */
  static real(this: void, self: NodeRequest): Request {
    if (self.#real === undefined) {
      const init: RequestInit & { duplex?: 'half' } = {
        method: self.method,
        headers: NodeHeaders.real(self.headers as unknown as NodeHeaders),
      };
      const body = self.#bodyStream();
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
delegateMissing(NodeRequest.prototype, Request.prototype, NodeRequest.real);

/**
 * The request the bridge hands the fetch handler; undefined when only the
 * eager path can build it faithfully (an absolute-form target, a Host that does not make a URL):
 * the caller then uses `toRequest`, which answers such requests 400.
 */
export function toLazyRequest(req: IncomingMessage, res: ServerResponse, state: BodyState, maxBodyBytes: number): Request | undefined {
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
  return new NodeRequest(req, res, url.href, state, hasBody, maxBodyBytes) as unknown as Request;
}
