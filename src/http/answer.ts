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
 * A JSON answer from an already-serialised body (bodies are written exactly, see json-write).
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
