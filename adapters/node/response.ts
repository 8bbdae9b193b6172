import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { ResponseFactory } from 'petstore-router';
import { inheritLazily } from './inherit.js';

// The response side of the Node bridge, in one place: the lazy JSON Response the store builds
// through `createResponse: nodeResponse`, and the writer of any Response on a Node response (an
// untouched JSON answer of ours in one call).

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
 * in one call from its parts (writeResponse below). test/node-json-response.test.ts holds it to a real one.
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
  static real(self: NodeJsonResponse): Response {
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
inheritLazily(
  NodeJsonResponse.prototype,
  () => Response.prototype,
  (self: NodeJsonResponse) => NodeJsonResponse.real(self),
);

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

const noop = () => {};

/**
 * The store's JSON answers of one handler, written together once the event-loop turn that made
 * them ends (a `setImmediate` after its I/O callbacks), as uWebSockets.js corks every send of a
 * loop iteration. The bytes of each answer are unchanged; what changes is when they leave: a
 * socket write to a client that sleeps wakes it, and on a virtual machine that wake-up (an
 * interrupt sent to another CPU) costs the writer more than the rest of the write. Answers written
 * back to back wake a client once per batch rather than once per answer (docs/performance.md, fast
 * path `batched-writes`). An answer waits at most for the other callbacks of its turn; the order
 * of answers on one connection is Node's to keep, as always (it holds a pipelined request's
 * response until the one before it has finished).
 */
export class AnswerBatch {
  #due: QueuedAnswer[] = [];
  readonly #onFailure: (res: ServerResponse, error: unknown, close: boolean) => void;

  /** `onFailure` answers for a write that threw (a header Node refuses): the bridge's 500. */
  constructor(onFailure: (res: ServerResponse, error: unknown, close: boolean) => void) {
    this.#onFailure = onFailure;
  }

  add(answer: QueuedAnswer): void {
    if (this.#due.length === 0) setImmediate(this.#flush);
    this.#due.push(answer);
  }

  readonly #flush = (): void => {
    const due = this.#due;
    this.#due = [];
    for (const answer of due) {
      const { res } = answer;
      if (res.destroyed) continue; // the client left meanwhile: nothing to write to
      try {
        writeNow(answer);
      } catch (error) {
        // One failed write must not cost the others of the batch their turn.
        try {
          this.#onFailure(res, error, answer.fields.connection === 'close');
        } catch {
          res.destroy();
        }
      }
    }
  };
}

/** An answer of the store, ready to write: the response, its status, header fields and body. */
interface QueuedAnswer {
  res: ServerResponse;
  status: number;
  fields: OutgoingHttpHeaders;
  text: string;
}

function writeNow({ res, status, fields, text }: QueuedAnswer): void {
  res.writeHead(status, fields);
  res.end(text);
}

/**
 * Writes a web Response on a Node response: status, headers (each Set-Cookie on its own line),
 * then the body. A body of one chunk (every JSON answer of the store) goes out in a single write
 * with Content-Length, because socket writes dominate the server's CPU; longer bodies stream with
 * back-pressure. HEAD answers and null bodies send headers only. With a `batch`, the store's
 * untouched JSON answers are written with the others of their event-loop turn (AnswerBatch).
 */
export function writeResponse(res: ServerResponse, response: Response, close: boolean, batch?: AnswerBatch): Promise<void> | undefined {
  // Synchronous for the store's lazy JSON answers (nearly every answer): no async layer, no
  // promise, for the caller to await (handler.ts awaits only a returned promise).
  return writeJsonAnswer(res, response, close, batch) ? undefined : writeOther(res, response, close);
}

/**
 * Writes a JSON answer the store built with our factory (NodeJsonResponse), untouched: no Headers,
 * no Response built. False when `response` is something else or the request is a HEAD.
 */
function writeJsonAnswer(res: ServerResponse, response: Response, close: boolean, batch: AnswerBatch | undefined): boolean {
  const parts = NodeJsonResponse.untouched(response);
  if (parts === undefined || res.req.method === 'HEAD') return false;
  // The answer's own field object (nobody else holds it once the store returned): no copy.
  const fields: OutgoingHttpHeaders = parts.fields ?? toNodeHeaders(parts.headers!);
  if (close) fields.connection = 'close';
  fields['content-length'] = Buffer.byteLength(parts.text);
  const answer: QueuedAnswer = { res, status: parts.status, fields, text: parts.text };
  if (batch) batch.add(answer);
  else writeNow(answer);
  return true;
}

async function writeOther(res: ServerResponse, response: Response, close: boolean): Promise<void> {
  const headers = toNodeHeaders(response.headers);
  if (close) headers.connection = 'close';
  const body = response.body;
  if (body === null || res.req.method === 'HEAD') {
    body?.cancel().catch(noop);
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  const reader = body.getReader();
  const cancel = () => void reader.cancel().catch(noop);
  res.once('close', cancel); // the client left: stop producing
  try {
    const first = await reader.read();
    if (first.done) {
      headers['content-length'] = 0;
      res.writeHead(response.status, headers);
      res.end();
      return;
    }
    const second = await reader.read();
    if (second.done) {
      headers['content-length'] = first.value.byteLength;
      res.writeHead(response.status, headers);
      res.end(first.value);
      return;
    }
    res.writeHead(response.status, headers);
    res.write(first.value);
    let chunk: ReadableStreamReadResult<Uint8Array> = second;
    for (; !chunk.done; chunk = await reader.read()) {
      if (res.destroyed) return;
      if (!res.write(chunk.value)) await drained(res);
    }
    res.end();
  } finally {
    res.off('close', cancel);
  }
}

/** Header names arrive lower-cased from Headers; Set-Cookie values stay separate lines. */
function toNodeHeaders(source: Headers): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  let cookies = false;
  for (const [name, value] of source) {
    if (name === 'set-cookie') cookies = true;
    else headers[name] = value;
  }
  if (cookies) headers['set-cookie'] = source.getSetCookie();
  return headers;
}

/** Resolves once the socket wants more data, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}
