import { isDatabaseUnavailable } from '../storage/driver-errors.js';
import { ApiError, ErrorCode } from './errors.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Seconds a client should wait before retrying when the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The body text of a Response built by `jsonResponse`, kept on it under this registered symbol so
 * a server adapter (adapters/node) can write the answer in one call without reading the body
 * stream back: on Node 20 reading a Response body costs about 45 us, a quarter of a request's
 * server CPU (docs/performance.md). Adapters use it only while `bodyUsed` is false and fall back
 * to the stream for any other Response, so a wrapped or rebuilt Response stays correct.
 */
export const BODY_TEXT: unique symbol = Symbol.for('petstore-router.bodyText') as never;

/**
 * A request carrying `true` under this registered symbol comes from a server adapter of ours
 * (adapters/node) that writes a {@link JsonResponse} itself and would take the lazy object on
 * any runtime. On Node.js every caller gets it anyway (see {@link LAZY_FOR_EVERY_CALLER}).
 */
const LAZY_RESPONSE_OK: unique symbol = Symbol.for('petstore-router.lazyResponse') as never;

/**
 * Whether the global Response is undici's, i.e. this is Node.js (Deno and Bun report a Node
 * version too, but not undici's, and say which they are). There every caller of `store.fetch`
 * gets the lazy {@link JsonResponse}: an undici Response built from a string costs ~14 us on
 * Node 20 to construct, and ~40 us of CPU per request in all with the collection of its stream
 * (docs/performance.md), which a test suite calling the store in-process pays on every request.
 * Node has no native server that would need undici's internal slots, and Node frameworks handle a
 * Response through its public members (the Node adapters of srvx and Hono answer with lazy
 * Responses of their own). Elsewhere (Deno.serve, Bun.serve, worker runtimes) the native server
 * needs a real Response, so the store builds one.
 */
const LAZY_FOR_EVERY_CALLER = (() => {
  const versions = (globalThis as { process?: { versions?: Record<string, string | undefined> } }).process?.versions;
  return typeof versions?.undici === 'string' && versions.bun === undefined && versions.deno === undefined;
})();

/**
 * For the adapter that opted in: status, header fields (a plain object while nobody asked for
 * `headers`, else the Headers) and body text of a lazy JSON answer still untouched, else undefined.
 */
const JSON_PARTS: unique symbol = Symbol.for('petstore-router.jsonParts') as never;

/** Module-private: JsonResponse's method adding header fields without building Headers. */
const ADD_FIELDS = Symbol('addFields');

export interface JsonParts {
  status: number;
  fields: Record<string, string> | undefined;
  headers: Headers | undefined;
  text: string;
}

/**
 * A JSON answer as a Response whose undici parts are built only when read: `status`, `ok` and
 * the body as text/json are served from the string; `headers` is a Headers built on first access;
 * `body`, `clone()` and the rest build the real Response once and delegate to it (from then on
 * `headers` is the real Response's). `instanceof Response` holds. Handed to every caller on
 * Node.js and to adapters that opted in (LAZY_RESPONSE_OK): a runtime's native server
 * (Deno.serve, Bun.serve) needs real ones. test/json-response.test.ts holds it to a real one.
 */
class JsonResponse {
  readonly #status: number;
  readonly #text: string;
  #fields: Record<string, string> | undefined;
  #headers: Headers | undefined;
  #real: Response | undefined;
  #used = false;

  constructor(status: number, text: string, fields: Record<string, string>) {
    this.#status = status;
    this.#text = text;
    this.#fields = fields;
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
  get [BODY_TEXT](): string {
    return this.#text;
  }
  /** Adds header fields while no Headers exists yet; false once one does (use `headers` then). */
  [ADD_FIELDS](headers: Record<string, string>): boolean {
    if (this.#fields === undefined || this.#real) return false;
    Object.assign(this.#fields, headers);
    return true;
  }
  get [JSON_PARTS](): JsonParts | undefined {
    if (this.#real || this.#used) return undefined;
    return { status: this.#status, fields: this.#fields, headers: this.#headers, text: this.#text };
  }
  get body(): ReadableStream<Uint8Array> | null {
    return this.real().body;
  }
  get bodyUsed(): boolean {
    return this.#real ? this.#real.bodyUsed : this.#used;
  }
  #take(): string {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#text;
  }
  text(): Promise<string> {
    if (this.#real) return this.#real.text();
    try {
      return Promise.resolve(this.#take());
    } catch (error) {
      return Promise.reject(error);
    }
  }
  json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text) as unknown);
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.real().arrayBuffer();
  }
  blob(): Promise<Blob> {
    return this.real().blob();
  }
  formData(): Promise<FormData> {
    return this.real().formData();
  }
  bytes(): Promise<Uint8Array> {
    return (this.real() as Response & { bytes(): Promise<Uint8Array> }).bytes();
  }
  clone(): Response {
    return this.real().clone();
  }
  /** The undici Response, built once (its body already read if the text was taken). */
  real(): Response {
    if (this.#real === undefined) {
      const response = new Response(this.#text, { status: this.#status, headers: this.#headers ?? this.#fields });
      (response as Response & { [BODY_TEXT]?: string })[BODY_TEXT] = this.#text;
      if (this.#used) void response.text().catch(() => {});
      this.#real = response;
    }
    return this.#real;
  }
}
Object.setPrototypeOf(JsonResponse.prototype, Response.prototype);

/** A JSON response from an already-serialised body (bodies are written exactly, see json-write). */
export function jsonResponse(status: number, body: string, headers?: Record<string, string>): Response {
  return new JsonResponse(status, body, { 'content-type': JSON_TYPE, ...headers }) as unknown as Response;
}

/** Route headers added to a response (set, replacing any of the same name). */
export function setHeaders(response: Response, headers: Record<string, string>): void {
  if (response instanceof JsonResponse && response[ADD_FIELDS](headers)) return;
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
}

/**
 * What the store returns for `request`: the lazy JSON answer on Node.js and to an adapter that
 * opted in, a real Response elsewhere.
 */
export function finalResponse(request: Request, response: Response): Response {
  if (!(response instanceof JsonResponse) || LAZY_FOR_EVERY_CALLER) return response;
  return (request as Request & { [LAZY_RESPONSE_OK]?: unknown })[LAZY_RESPONSE_OK] === true ? response : response.real();
}

/**
 * Classifies anything thrown while serving a request: an ApiError stays itself; a database that
 * cannot be reached becomes 503 + Retry-After; anything else is a masked 500 (no stack, no SQL).
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    return new ApiError(503, ErrorCode.serviceUnavailable, 'the database is unavailable, retry later', undefined, {
      'retry-after': String(RETRY_AFTER_SECONDS),
    }, { cause: error });
  }
  return new ApiError(500, ErrorCode.internalError, 'internal server error', undefined, undefined, { cause: error });
}

/** The one place an error becomes a Response. */
export function errorResponse(error: ApiError, extraHeaders?: Record<string, string>): Response {
  return jsonResponse(error.status, JSON.stringify(error.toBody()), { ...error.headers, ...extraHeaders });
}

/** HEAD: the GET answer's status and headers, no body. */
export function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, headers: response.headers });
}

/** An answer with no body (a CORS preflight's 204). */
export function emptyResponse(status: number, headers: Record<string, string>): Response {
  return new Response(null, { status, headers });
}
