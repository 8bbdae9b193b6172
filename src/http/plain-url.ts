/**
 * URLs that are already what `new URL()` serialises them to, so that they can be built and cut as
 * text: `new URL()` is a measurable cost per request (docs/performance.md, "Fast paths"), and the
 * usual request (a lowercase host name or IPv4 address, a path and query of plain characters)
 * needs none of its normalisation: no percent-encoding, no dot segments, no default port to drop,
 * no IDNA. `test/node-target.test.ts` and `test/request-url.test.ts` compare with `new URL()` on
 * generated inputs.
 */

/** A host name whose last label is not a number (an IPv4 parse), or a canonical IPv4 address. */
const PLAIN_HOST = /^(?:(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*|(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d))$/;
/** A port without leading zeros (`080` is 80). */
const PLAIN_PORT = /^[1-9]\d{0,4}$/;
/** Path and query characters `new URL()` keeps as they are (`'` is encoded in a query, so not here). */
const PLAIN_TARGET = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@/%]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/%?]*)?$/;
/** What may be a dot segment in a path: `/.` or a percent-encoded dot. */
const MAYBE_DOT_SEGMENT = /\/\.|%2e/i;

/**
 * Whether `new URL(`${scheme}://${host}${target}`).href` is exactly that text (`target`: the path
 * and an optional query). False also for many that are, only never the other way.
 */
export function isPlainUrl(scheme: string, host: string, target: string): boolean {
  if (!PLAIN_TARGET.test(target)) return false;
  const query = target.indexOf('?');
  if (MAYBE_DOT_SEGMENT.test(query === -1 ? target : target.slice(0, query))) return false;
  return isPlainHost(scheme, host);
}

function isPlainHost(scheme: string, host: string): boolean {
  const colon = host.indexOf(':');
  const name = colon === -1 ? host : host.slice(0, colon);
  if (!PLAIN_HOST.test(name) || name.includes('xn--')) return false;
  if (colon === -1) return true;
  const port = host.slice(colon + 1);
  return PLAIN_PORT.test(port) && Number(port) <= 65_535 && port !== (scheme === 'http' ? '80' : scheme === 'https' ? '443' : '');
}
