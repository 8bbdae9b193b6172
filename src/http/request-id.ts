/** An `X-Request-Id` we keep: 1 to 200 characters of `A-Z a-z 0-9 - _ . : =` (nothing a log line could be forged with). */
const VALID_ID = /^[A-Za-z0-9\-_.:=]{1,200}$/;

/**
 * The id of a request: its own `X-Request-Id` when valid, else a new random UUID. Every answer
 * carries it back. `crypto.randomUUID` is a web global (Node, Deno, Bun, workers) and draws from
 * a cached entropy pool (its cost per request: docs/performance.md).
 */
export function requestIdOf(request: Request): string {
  return requestIdFromHeader(request.headers.get('x-request-id'));
}

/**
 * The request id for a request whose `X-Request-Id` header is `given` (absent: null or
 * undefined): `given` when it is 1 to 200 characters of `A-Z a-z 0-9 - _ . : =`, else a new random
 * UUID. What the store answers with, for an adapter that answers a request itself (an HTTP parser
 * error, a body over its cap), so that every answer carries an id.
 *
 * @example
 * ```ts
 * res.setHeader('x-request-id', requestIdFromHeader(req.headers['x-request-id'] as string | undefined))
 * ```
 */
export function requestIdFromHeader(given: string | null | undefined): string {
  return given !== null && given !== undefined && VALID_ID.test(given) ? given : crypto.randomUUID();
}

// W3C Trace Context: version-traceid-parentid-flags, lower-case hex; version ff is invalid, and a
// later version may append fields after a dash.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-.*)?$/;

/** The trace id of a valid W3C `traceparent` header, else undefined. */
export function traceIdOf(request: Request): string | undefined {
  const header = request.headers.get('traceparent');
  if (header === null) return undefined;
  const m = TRACEPARENT.exec(header.trim());
  if (!m || m[1] === 'ff' || (m[1] === '00' && m[4] !== undefined)) return undefined;
  if (/^0+$/.test(m[2]!) || /^0+$/.test(m[3]!)) return undefined;
  return m[2];
}
