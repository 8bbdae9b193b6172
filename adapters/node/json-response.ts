import type { ResponseFactory } from 'petstore-router';
import { delegateMissing } from './inherit.js';

/** What {@link NodeJsonResponse.untouched} gives the writer: the answer as the store made it. */
export interface UntouchedJson {
  status: number;
  /** The header fields while nobody asked for `headers`, else the Headers. */
  fields: Record<string, string> | undefined;
  headers: Headers | undefined;
  text: string;
}

/**
 * The store's JSON answers on this bridge (given to the store as `createResponse: nodeResponse`): a
 * `Response` whose platform object is built only when read. `status`, `ok` and the body as text
 * or JSON are served from the string; `headers` is a Headers built on first access; every other
 * member builds the real Response once and delegates to it (see inherit.ts), from then on
 * `headers` included. `instanceof Response` holds. While nobody touched it, the bridge writes it
 * in one call from its parts (response.ts). test/node-json-response.test.ts holds it to a real one.
 */
export class NodeJsonResponse {
  readonly #status: number;
  readonly #text: string;
  #fields: Record<string, string> | undefined;
  #headers: Headers | undefined;
  #real: Response | undefined;
  #used = false;

  constructor(text: string, status: number, headers: Record<string, string>) {
    this.#status = status;
    this.#text = text;
    this.#fields = headers;
  }

  /** The parts of `response` when it is one of ours, untouched (body unread, no real Response). */
  static untouched(response: Response): UntouchedJson | undefined {
    if (!(#text in response)) return undefined;
    const self = response as unknown as NodeJsonResponse;
    if (self.#real || self.#used) return undefined;
    return { status: self.#status, fields: self.#fields, headers: self.#headers, text: self.#text };
  }

  get status(): number {
    return this.#status;
  }
  get ok(): boolean {
    return this.#status >= 200 && this.#status < 300;
  }
  get statusText(): string {
    return '';
  }
  get type(): ResponseType {
    return 'default';
  }
  get url(): string {
    return '';
  }
  get redirected(): boolean {
    return false;
  }
  get headers(): Headers {
    if (this.#real) return this.#real.headers;
    if (this.#headers === undefined) {
      this.#headers = new Headers(this.#fields);
      this.#fields = undefined;
    }
    return this.#headers;
  }
  get bodyUsed(): boolean {
    return this.#real ? this.#real.bodyUsed : this.#used;
  }
  text(): Promise<string> {
    if (this.#real) return this.#real.text();
    if (this.#used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    this.#used = true;
    return Promise.resolve(this.#text);
  }
  json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text) as unknown);
  }

  /** The platform Response of `self`, built once (its body already read if the text was taken). */
  static real(this: void, self: NodeJsonResponse): Response {
    return self.#build();
  }

  #build(): Response {
    if (this.#real === undefined) {
      const response = new Response(this.#text, { status: this.#status, headers: this.#headers ?? this.#fields });
      if (this.#used) void response.text().catch(() => {});
      this.#real = response;
    }
    return this.#real;
  }
}
Object.setPrototypeOf(NodeJsonResponse.prototype, Response.prototype);
delegateMissing(NodeJsonResponse.prototype, Response.prototype, NodeJsonResponse.real);

/**
 * The store's `createResponse` for this bridge: a lazy standard Response (instanceof Response,
 * reading as the answer's parts) that the bridge writes in one call while nobody touched it.
 *
 * @example
 * ```ts
 * import { createPetStore } from 'petstore-router'
 * import { createNodeHandler, nodeResponse } from 'petstore-router/node'
 *
 * const store = createPetStore({ db, keys, createResponse: nodeResponse })
 * createServer(createNodeHandler(store)).listen(8080)
 * ```
 */
export const nodeResponse: ResponseFactory = (text, status, headers) => new NodeJsonResponse(text, status, headers) as unknown as Response;
