import { entityTag, ifNoneMatchMatches } from '../http/entity-tag.js';
import { type Answer, JsonAnswer, plainResponse, setHeader } from '../http/answer.js';

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
export function conditionalAnswer(request: Request, answer: Answer): Answer | Promise<Answer> {
  if (answer.status !== 200) return answer;
  // The store's own JSON answers carry their text, so the usual path has no await; a Response a
  // route built itself is read from a clone.
  if (answer instanceof JsonAnswer) return tagged(request, answer, answer.text, answer.headers.link ?? null);
  return answer
    .clone()
    .text()
    .then((read) => tagged(request, answer, read, answer.headers.get('link')));
}

function tagged(request: Request, answer: Answer, text: string, link: string | null): Answer {
  const tag = entityTag(link, text);
  setHeader(answer, 'etag', tag);
  setHeader(answer, 'cache-control', CACHE_CONTROL);
  const condition = request.headers.get('if-none-match');
  if (condition === null || !ifNoneMatchMatches(condition, tag)) return answer;
  const fields = answer instanceof JsonAnswer ? Object.entries(answer.headers) : [...answer.headers];
  const deprecated = fields.some(([name]) => name.toLowerCase() === 'deprecation');
  const headers = new Headers();
  for (const [name, value] of fields) {
    const lower = name.toLowerCase();
    if (KEPT.test(lower) || (lower === 'link' && deprecated)) headers.set(name, value);
  }
  return plainResponse(304, null, headers);
}
