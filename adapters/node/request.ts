import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { type BodyState, NodeBodyReader, bodyStream } from './body.js';

/**
 * A web Request for a Node request, without buffering: headers from `rawHeaders`, the body as a
 * pull-driven stream capped at `maxBodyBytes`, and `signal` aborted by the caller on disconnect.
 * Throws a TypeError when the target, a header or the method cannot be represented (answered 400).
 */
export function toRequest(req: IncomingMessage, signal: AbortSignal, state: BodyState, maxBodyBytes: number): Request {
  // Headers from rawHeaders, appended one by one: `req.headers` keeps only the first of several
  // Authorization headers, and the store must see them all (`a, b`) to answer 401.
  const raw = req.rawHeaders;
  const headers = new Headers();
  let host = 'localhost';
  let mayHaveBody = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    headers.append(name, value);
    const lower = name.toLowerCase();
    if (lower === 'host') host = value;
    else if (lower === 'content-length') mayHaveBody = value !== '0';
    else if (lower === 'transfer-encoding') mayHaveBody = true;
  }
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  // Origin-form targets ('/v1/pets') get the Host header's origin; absolute-form ones are used as sent.
  const url = target.startsWith('/') ? `${scheme}://${host}${target}` : target;
  const hasBody = mayHaveBody && method !== 'GET' && method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (hasBody) {
    init.body = bodyStream(new NodeBodyReader(req, state, maxBodyBytes));
    init.duplex = 'half'; // required by Node's Request for a stream body
  }
  return new Request(url, init);
}
