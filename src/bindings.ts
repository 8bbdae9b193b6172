/**
 * The one contract between the store and a server adapter: what an adapter may hand
 * `store.fetch(request, bindings)` as its second argument so the store can skip work the adapter
 * already did or can do cheaper (as Hono passes a runtime's bindings as `fetch`'s second
 * argument). Everything here is optional: without bindings the store reads the standard
 * `Request` and answers with standard `Response`s, the same answers (test/bindings.test.ts).
 *
 * A runtime's own second argument (Deno's `info`, Bun's `server`, Hono's `env`) is never taken for
 * bindings: only a value made by {@link createBindings} for this very request counts.
 */

/** The parts of a request's URL the adapter already built. A `URL` fits. */
export interface BoundUrl {
  /** Must equal `request.url`, else the store parses `request.url` itself. */
  readonly href: string;
  readonly origin: string;
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/** Pulls a body's chunks, as the reader of a `ReadableStream` does. */
export interface BodyReader {
  /** The next chunk, or `{ done: true }` at the end; rejects when the body cannot be read on. */
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  /** Stops reading: the store does so past its body limit. */
  cancel(reason?: unknown): Promise<void>;
}

/** A JSON answer of the store, for {@link AdapterBindings.jsonResponse}. */
export interface JsonAnswerParts {
  status: number;
  /** Lower-case field names; the object is the adapter's to keep (nobody else holds it). */
  headers: Record<string, string>;
  /** The exact body text (UTF-8 JSON). */
  text: string;
}

/** What an adapter offers the store for one request. Each member is optional. */
export interface AdapterBindings {
  /** The URL parts `request.url` was built from. Used only while `url.href === request.url`. */
  url?: BoundUrl;
  /** `request.headers.get(name)` for a lower-case `name`, without building a Headers. */
  header?: (name: string) => string | null;
  /**
   * A reader of the request body, or undefined when the body stream was already handed out
   * (the store then reads `request.body`). The store counts the bytes and cancels past its limit.
   */
  body?: () => BodyReader | undefined;
  /** Builds the Response of a JSON answer (e.g. one the adapter writes in a single call). */
  jsonResponse?: (answer: JsonAnswerParts) => Response;
}

/** Bindings made by {@link createBindings}; opaque. */
export class StoreBindings {
  readonly #request: Request;
  readonly #parts: AdapterBindings;

  /** @internal Use {@link createBindings}. */
  constructor(request: Request, parts: AdapterBindings) {
    this.#request = request;
    this.#parts = parts;
  }

  /** @internal The adapter's parts when `value` was made for `request`, else undefined. */
  static for(request: Request, value: unknown): AdapterBindings | undefined {
    return typeof value === 'object' && value !== null && #request in value && value.#request === request ? value.#parts : undefined;
  }
}

/**
 * Bindings for `request`, to pass as `store.fetch(request, bindings)`'s second argument. They
 * apply to that Request object only: a handler that passes them on with another Request (a
 * rewritten URL, new headers) gets the plain path.
 *
 * @example
 * ```ts
 * import { createBindings } from 'petstore-router'
 *
 * const url = new URL(request.url)
 * const response = await store.fetch(request, createBindings(request, { url }))
 * ```
 */
export function createBindings(request: Request, parts: AdapterBindings): StoreBindings {
  return new StoreBindings(request, parts);
}
