// The answer of a framework adapter when the host framework read the request body before the
// store could: the bytes are gone, so the store cannot check them (media type, size, exact int64).
import { ErrorCode, requestIdFromHeader } from 'petstore-router';

/**
 * The status of that answer: 500, a server error. The host's configuration is at fault, not the
 * client's request, so a 4xx would tell the client to change what it cannot fix, and keep the
 * fault out of the server's error rates; the message (never masked) tells the operator the fix.
 */
export const BODY_ALREADY_PARSED_STATUS = 500;

/**
 * Makes the answer for one adapter instance: `who` names what read the body, `fix` what to change.
 * The first answer is also logged on stderr, once per instance, since no client can act on it.
 */
export function bodyAlreadyParsedAnswer(who: string, fix: string): (requestId: string | null | undefined) => Response {
  const message = `the request body was already read by ${who} before the pet store got it: ${fix}`;
  let logged = false;
  return (requestId) => {
    if (!logged) {
      logged = true;
      console.error(`petstore-router: ${message}`);
    }
    const status = BODY_ALREADY_PARSED_STATUS;
    return new Response(JSON.stringify({ code: ErrorCode.bodyAlreadyParsed, message, status }), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestIdFromHeader(requestId ?? undefined) },
    });
  };
}
