import type { RouteDefinition } from '../routes/table.js';
import { keyIdOfPrincipal } from '../http/key-id.js';
import { traceIdOf } from '../http/request-id.js';

/** What `onResponse` receives once per request, after its response is built. */
export interface ResponseEvent {
  request: Request;
  /** The status of the answer (after HEAD, CORS and every other step). */
  status: number;
  /** The operation the request was routed to (`listPets`, `getHealth`, ...), or undefined. */
  operationId: string | undefined;
  /** The route template with the base path (`/v1/pets/{petId}`), or undefined when no route matched. */
  route: string | undefined;
  /** From the request's arrival in the store to its response being built, in milliseconds. */
  durationMs: number;
  /** The `X-Request-Id` the answer carries. */
  requestId: string;
  /** The {@link keyId} of the key that authenticated the request, or undefined (no key, or a public route). */
  keyId: string | undefined;
  /** The trace id of a valid W3C `traceparent` header, or undefined. */
  traceId: string | undefined;
  /** What failed, for a 5xx answer only (the client saw a masked message); undefined otherwise. */
  error: unknown;
}

/** Called by the store with every finished request; see `PetStoreOptions.onResponse`. */
export type OnResponse = (event: ResponseEvent) => void | Promise<void>;

/** What `onError` receives besides the error and the request. */
export interface ErrorContext {
  /** The `X-Request-Id` of the failed request's answer. */
  requestId: string;
}

export type OnError = (error: unknown, request: Request, context: ErrorContext) => void;

/** What the pipeline noted about one request while serving it, for its event. */
export interface Seen {
  startedAt: number;
  route: RouteDefinition | undefined;
  principal: string | undefined;
  error: unknown;
}

/**
 * Reports one finished request to `onResponse` without letting it touch the answer: what it
 * throws, or what its promise rejects with, goes to `onError` (and whatever `onError` throws then
 * is dropped: the response is already built and must be returned).
 */
export function createReporter(onResponse: OnResponse, onError: OnError, basePath: string) {
  const templates = new Map<RouteDefinition, string>();
  const templateOf = (route: RouteDefinition) => {
    let template = templates.get(route);
    if (template === undefined) templates.set(route, (template = basePath + route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')));
    return template;
  };
  const fail = (error: unknown, request: Request, requestId: string) => {
    try {
      onError(error, request, { requestId });
    } catch {
      // onError itself failed: nothing left to tell, and the answer must still go out.
    }
  };
  return function report(request: Request, status: number, requestId: string, seen: Seen): void {
    try {
      const result = onResponse({
        request,
        status,
        operationId: seen.route?.operationId,
        route: seen.route ? templateOf(seen.route) : undefined,
        durationMs: performance.now() - seen.startedAt,
        requestId,
        keyId: keyIdOfPrincipal(seen.principal),
        traceId: traceIdOf(request),
        error: status >= 500 ? seen.error : undefined,
      });
      if (result !== undefined && typeof result.then === 'function') {
        result.then(undefined, (error: unknown) => fail(error, request, requestId));
      }
    } catch (error) {
      fail(error, request, requestId);
    }
  };
}
