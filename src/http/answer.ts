// What routes return (a JSON answer not yet a Response) and the one place it becomes a Response.

/** The media type of every JSON body the store writes. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A JSON answer of a route, not yet a Response: status, header fields and the exact body text.
 * The pipeline turns it into the Response the caller gets (see {@link toResponse}), so route
 * headers are added to a plain object and an adapter may build the Response its own way.
 */
export class JsonAnswer {
  constructor(
    readonly status: number,
    readonly text: string,
    readonly headers: Record<string, string>,
  ) {}
}

/** What a route returns: a JSON answer, or a Response it built itself. */
export type Answer = JsonAnswer | Response;

/**
 * A JSON answer from an already-serialised body (bodies are written exactly, see writePet).
 * Named for what the caller gets in the end: the Response is built once, by {@link toResponse}.
 */
export function jsonResponse(status: number, body: string, headers?: Record<string, string>): JsonAnswer {
  return new JsonAnswer(status, body, { 'content-type': JSON_TYPE, ...headers });
}

/** One header field added to an answer (set, replacing any of the same name), with no object to build. */
export function setHeader(answer: Answer, name: string, value: string): void {
  if (answer instanceof JsonAnswer) answer.headers[name] = value;
  else answer.headers.set(name, value);
}

/** Route headers added to an answer (set, replacing any of the same name). */
export function setHeaders(answer: Answer, headers: Record<string, string>): void {
  if (answer instanceof JsonAnswer) Object.assign(answer.headers, headers);
  else for (const [name, value] of Object.entries(headers)) answer.headers.set(name, value);
}

/** A Response that is not a JSON answer: a 304, a CORS preflight's 204, the API reference page and its files. */
export function plainResponse(status: number, body: string | Uint8Array | null, headers: HeadersInit): Response {
  return new Response(body as BodyInit | null, { status, headers });
}

/**
 * Builds the Response of a JSON answer: `text` as the body, `status`, and `headers` (lower-case
 * names; the object is the factory's to keep, nobody else holds it). It must return a standard
 * `Response` (an instance of `Response`) that reads as exactly these parts.
 */
export type ResponseFactory = (text: string, status: number, headers: Record<string, string>) => Response;

/** The standard factory: `new Response(text, { status, headers })`. */
export const standardResponse: ResponseFactory = (text, status, headers) => new Response(text, { status, headers });

/**
 * The Response the store returns for an answer, JSON answers built by `build` (the store's
 * `createResponse` option). HEAD gets the status and headers without the body.
 */
export function toResponse(answer: Answer, method: string, build: ResponseFactory): Response {
  if (!(answer instanceof JsonAnswer)) return method === 'HEAD' ? withoutBody(answer) : answer;
  if (method === 'HEAD') return new Response(null, { status: answer.status, headers: answer.headers });
  return build(answer.text, answer.status, answer.headers);
}

/** HEAD: the GET answer's status and headers, no body. */
function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, headers: response.headers });
}
