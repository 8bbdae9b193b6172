import { entityTag, ifNoneMatchMatches } from './entity-tag.js';
import { requestHeader } from './header.js';
import { BODY_TEXT, plainResponse, setHeaders } from './respond.js';

/** How every tagged answer may be cached: by the client only, and revalidated before each use. */
export const CACHE_CONTROL = 'private, no-cache';

/**
 * Header fields a 304 keeps from the answer it stands for (RFC 9110 section 15.4.5): the
 * validators and caching fields, the request id, rate-limit and CORS fields, and `getPet`'s
 * deprecation fields with its successor `Link`. Representation fields (`Content-Type`,
 * `Content-Length`) and a list's `rel="next"` Link are left to the client's stored copy.
 */
const KEPT = /^(?:etag|cache-control|vary|x-request-id|deprecation|sunset|ratelimit|ratelimit-policy|access-control-.*)$/;

/**
 * Conditional GET for an answer of a GET operation: a 200 gets an `ETag` (from its body text and
 * `Link` header, so it follows every change of either) and `Cache-Control: private, no-cache`;
 * when the request's `If-None-Match` matches, the answer becomes a 304 without a body. Any other
 * status is left alone and never turned into a 304 (RFC 9110 section 13.2.1): a `getPet` that
 * turned 410 at the sunset answers 410 whatever tag the client holds.
 */
export function conditionalAnswer(request: Request, response: Response): Response | Promise<Response> {
  if (response.status !== 200) return response;
  // The store's own JSON answers carry their text, so the usual path has no await; any other
  // answer is read from a clone.
  const text = (response as Response & { [BODY_TEXT]?: unknown })[BODY_TEXT];
  if (typeof text === 'string') return tagged(request, response, text);
  return response.clone().text().then((read) => tagged(request, response, read));
}

function tagged(request: Request, response: Response, text: string): Response {
  const tag = entityTag(response.headers.get('link'), text);
  setHeaders(response, { etag: tag, 'cache-control': CACHE_CONTROL });
  const condition = requestHeader(request, 'if-none-match');
  if (condition === null || !ifNoneMatchMatches(condition, tag)) return response;
  const headers = new Headers();
  response.headers.forEach((value, name) => {
    if (KEPT.test(name) || (name === 'link' && response.headers.has('deprecation'))) headers.set(name, value);
  });
  return plainResponse(304, null, headers);
}
