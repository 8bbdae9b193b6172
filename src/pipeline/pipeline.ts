import type { RouteRequest, StoreContext } from '../routes/context.js';
import { Router } from 'itty-router';
import type { RouteDefinition } from '../routes/table.js';
import type { Authenticate } from './auth.js';
import { conditionalAnswer } from './conditional.js';
import type { Cors } from './cors.js';
import { ApiError, ErrorCode } from '../errors.js';
import { type OnError, type OnResponse, type Seen, createReporter } from './on-response.js';
import type { RateLimiter } from './rate-limit.js';
import { type Answer, type ResponseFactory, setHeader, setHeaders, toResponse } from '../http/answer.js';
import { errorResponse, toApiError } from './respond.js';
import type { Admission } from './shed.js';
import { readJsonObject } from '../http/body.js';

export interface PipelineOptions {
  store: StoreContext;
  routes: readonly RouteDefinition[];
  /** Routes answered without a key (the OpenAPI document); routed like the others. */
  publicRoutes?: readonly RouteDefinition[];
  authenticate: Authenticate;
  /** Counts each authenticated request that reaches an operation (off when absent). */
  rateLimit?: RateLimiter | undefined;
  onError: OnError;
  /** Cross-origin policy; absent: no CORS header, no preflight answer. */
  cors?: Cors | undefined;
  /** Told about every finished request; absent: nothing is measured. */
  onResponse?: OnResponse | undefined;
  /** How JSON answers become Responses. */
  createResponse: ResponseFactory;
  /** Load shedding (option `concurrency`): keyed operations enter it once their body is in. Absent: off. */
  admission?: Admission | undefined;
}

/**
 * The request pipeline: base path, authentication (401 before any other answer under the base
 * path, CORS preflights excepted), routing (404, 405 + Allow, HEAD), the route, and the one
 * mapping of errors to responses; then the request id, CORS headers and the onResponse event.
 */
export function createPipeline({
  store,
  routes,
  publicRoutes = [],
  authenticate,
  rateLimit,
  onError,
  cors,
  onResponse,
  createResponse,
  admission,
}: PipelineOptions) {
  const match = createRouteMatcher([...routes, ...publicRoutes], store.basePath);
  const isPublic = new Set(publicRoutes);
  const base = store.basePath;
  const report = onResponse ? createReporter(onResponse, onError, base) : undefined;

  // Every answer carries its X-Request-Id; CORS headers and the onResponse event only when asked
  // for (a branch each otherwise). One async function per request: a second awaited layer cost
  // more than the id itself (history: git log of docs/performance.md).
  return handle;

  async function handle(request: Request): Promise<Response> {
    const requestId = requestIdFromHeader(request.headers.get('x-request-id'));
    const seen: Seen | undefined = report
      ? { startedAt: performance.now(), route: undefined, principal: undefined, error: undefined }
      : undefined;
    const allowOrigin = cors?.allowOrigin(request);
    let routeHeaders: Record<string, string> | undefined;
    let limitHeaders: Record<string, string> | undefined;
    let admitted: string | undefined;
    try {
      if (allowOrigin !== undefined && cors!.isPreflight(request)) {
        const answer = preflight(request, allowOrigin);
        if (answer) return finish(request, answer, requestId, undefined, seen);
      }
      const url = new URL(request.url);
      const path = url.pathname;
      if (base !== '' && path !== base && !path.startsWith(`${base}/`)) throw notFound();
      const found = match(request.method, path);
      if (seen) seen.route = found?.route;
      // Matching has no effects. Anything but a public route checks the key before its 404 or
      // 405, so a request without one learns nothing about which paths exist.
      const auth = found?.route && isPublic.has(found.route) ? '' : authenticate(request);
      const principal = typeof auth === 'string' ? auth : await auth;
      if (seen) seen.principal = principal;
      if (!found) throw notFound();
      if (!found.route) {
        throw new ApiError({
          status: 405,
          code: ErrorCode.methodNotAllowed,
          message: `${request.method} is not allowed here`,
          headers: {
            allow: found.allow,
          },
        });
      }
      const req: RouteRequest = { request, url, params: found.params, store, principal };
      routeHeaders = found.route.headers?.(req);
      // The body arrives on the client's time (bounded by the adapter), before the request
      // counts against the bound of work at once; keyed operations only (public ones do no
      // database work of the store's, and health must never wait behind API work).
      if (found.route.request?.body !== undefined) {
        // A request that would be refused now is refused before its body is read (the refusal
        // held 100 ms, shed.ts): a client retrying at once costs the least it can.
        const refused = admission && principal !== '' ? admission.refuseAtOnce(principal, request) : undefined;
        if (refused) await refused;
        req.rawBody = await readJsonObject(request);
      }
      if (admission && principal !== '') {
        const entering = admission.enter(principal, request);
        if (entering) await entering;
        admitted = principal;
      }
      if (rateLimit && principal !== '') limitHeaders = await rateLimit(principal);
      let answer = await found.route.handler(req);
      if (routeHeaders) setHeaders(answer, routeHeaders);
      if (limitHeaders) setHeaders(answer, limitHeaders);
      if (found.route.method === 'GET' && principal !== '') {
        const conditional = conditionalAnswer(request, answer);
        answer = conditional instanceof Promise ? await conditional : conditional;
      }
      if (admitted !== undefined) {
        admission!.leave(admitted);
        admitted = undefined;
      }
      return finish(request, answer, requestId, allowOrigin, seen);
    } catch (thrown) {
      if (admitted !== undefined) admission!.leave(admitted);
      // A refusal of the admission: cheap by design, so no onResponse, onError nor access log
      // (a client retrying at once must not make logging the bottleneck).
      if (thrown instanceof ApiError && thrown.code === ErrorCode.overloaded) {
        return finish(request, errorResponse(thrown, routeHeaders), requestId, allowOrigin, undefined);
      }
      const error = toApiError(thrown, store.classify, request.method !== 'GET' && request.method !== 'HEAD');
      if (error.status >= 500) {
        reportError(thrown, request, requestId);
        if (seen) seen.error = thrown;
      }
      const answer = errorResponse(error, limitHeaders ? { ...routeHeaders, ...limitHeaders } : routeHeaders);
      return finish(request, answer, requestId, allowOrigin, seen);
    }
  }

  /** A preflight to a path under the base path (204 with that path's methods), else undefined. */
  function preflight(request: Request, allowOrigin: string): Response | undefined {
    const path = new URL(request.url).pathname;
    if (base !== '' && path !== base && !path.startsWith(`${base}/`)) return undefined;
    const found = match(request.method, path);
    return cors!.preflight(allowOrigin, found && !found.route ? found.allow : undefined);
  }

  /** Tells onError; what it throws is dropped, so the client still gets its Error body. */
  function reportError(thrown: unknown, request: Request, requestId: string): void {
    try {
      onError(thrown, request, { requestId });
    } catch {
      // Nothing left to tell: the answer must still go out.
    }
  }

  /** What every answer gets last: its request id, the CORS headers, the onResponse event. */
  function finish(request: Request, answer: Answer, requestId: string, allowOrigin: string | undefined, seen: Seen | undefined): Response {
    setHeader(answer, 'x-request-id', requestId);
    if (allowOrigin !== undefined) cors!.decorate(answer, allowOrigin);
    if (seen) report!(request, answer.status, requestId, seen);
    return toResponse(answer, request.method, createResponse);
  }
}

const NO_PARAMS: Record<string, string> = Object.freeze({});

export type RouteMatch = { route: RouteDefinition; params: Record<string, string> } | { route?: undefined; allow: string } | undefined;

/**
 * Compiles the route table with itty-router's patterns and matches a method and path against it.
 *
 * We use itty's compiled routes rather than `router.fetch`: itty has no 405 and no HEAD, and its
 * fetch re-parses the URL and writes onto the request object. Here a path that matches with
 * another method gives the `Allow` list (HEAD wherever GET is), and HEAD is served by GET.
 */
export function createRouteMatcher(table: readonly RouteDefinition[], basePath: string) {
  const router = Router({ base: basePath });
  // Paths without parameters first, so `/pets/search` would win over `/pets/:petId` whatever the
  // table's order (the sort is stable: otherwise the table's order).
  const ordered = [...table].sort((a, b) => Number(a.path.includes(':')) - Number(b.path.includes(':')));
  for (const route of ordered) {
    const add = router[route.method.toLowerCase()] as (path: string, handler: () => RouteDefinition) => unknown;
    add(route.path, () => route);
  }
  const compiled = router.routes.map(([method, regex, handlers]) => ({
    method,
    regex,
    route: (handlers[0] as () => RouteDefinition)(),
  }));

  return function match(method: string, pathname: string): RouteMatch {
    const wanted = method === 'HEAD' ? 'GET' : method;
    let allow: Set<string> | undefined;
    for (const c of compiled) {
      const m = c.regex.exec(pathname);
      if (!m) continue;
      // The match's own groups object (fresh per exec), not a copy: the definition parses it.
      if (c.method === wanted) return { route: c.route, params: m.groups ?? NO_PARAMS };
      (allow ??= new Set()).add(c.method);
      if (c.method === 'GET') allow.add('HEAD');
    }
    return allow ? { allow: [...allow].sort().join(', ') } : undefined;
  };
}

function notFound(): ApiError {
  return new ApiError({ status: 404, code: ErrorCode.notFound, message: 'no such resource' });
}

/** An `X-Request-Id` we keep: 1 to 200 characters of `A-Z a-z 0-9 - _ . : =` (nothing a log line could be forged with). */
const VALID_ID = /^[A-Za-z0-9\-_.:=]{1,200}$/;

/**
 * The request id for a request whose `X-Request-Id` header is `given` (absent: null or
 * undefined): `given` when it is 1 to 200 characters of `A-Z a-z 0-9 - _ . : =`, else a new random
 * UUID. What the store answers with, for an adapter that answers a request itself (an HTTP parser
 * error, a body over its cap), so that every answer carries an id. `crypto.randomUUID` is a web
 * global (Node, Deno, Bun, workers) drawing from a cached entropy pool.
 *
 * @example
 * ```ts
 * res.setHeader('x-request-id', requestIdFromHeader(req.headers['x-request-id'] as string | undefined))
 * ```
 */
export function requestIdFromHeader(given: string | null | undefined): string {
  return given !== null && given !== undefined && VALID_ID.test(given) ? given : crypto.randomUUID();
}
