/**
 * The origin a test store's `fetch` resolves a relative URL against (`'/v1/pets'` is
 * `http://localhost/v1/pets`): the origin of `Location` and `Link` in its answers.
 */
export const TEST_ORIGIN = 'http://localhost';

/** A test store's `fetch`: called like the global `fetch`, answered in-process by the store. */
export type TestFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * `handle` called the way the global `fetch` is: a Request, or a URL (string or URL object) with
 * `init`; a string may also be a path, resolved against {@link TEST_ORIGIN}. Like the global
 * `fetch`, a request that cannot be built (a bad method, a body on GET) rejects with a TypeError.
 */
export function fetchLike(handle: (request: Request) => Promise<Response>): TestFetch {
  return async (input, init) => {
    if (input instanceof Request && init === undefined) return handle(input);
    const target = typeof input === 'string' ? new URL(input, TEST_ORIGIN) : input;
    return handle(new Request(target, init));
  };
}
