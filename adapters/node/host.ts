import type { IncomingMessage } from 'node:http';

/**
 * True for an HTTP/1.1 request without a Host header, which a server must refuse with 400
 * (RFC 9112 3.2). `serve()` turns off Node's own check (`requireHostHeader`), whose 400 has an
 * empty body, so that the bridge answers it with the Error body instead. Reads `rawHeaders`, not
 * `headers`, so that the common request does not build Node's header object for this.
 */
export function lacksRequiredHost(req: IncomingMessage): boolean {
  if (req.httpVersionMajor !== 1 || req.httpVersionMinor !== 1) return false;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') return false;
  }
  return true;
}
