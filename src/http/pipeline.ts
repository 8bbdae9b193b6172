import type { AdapterBindings } from '../bindings.js';
import type { RouteRequest, StoreContext } from '../context.js';
import { createRouteMatcher } from '../routes/router.js';
import type { RouteDefinition } from '../routes/table.js';
import type { Authenticate } from './auth.js';
import { conditionalAnswer } from './conditional.js';
import { ApiError, ErrorCode } from './errors.js';
import { requestUrlOf } from './request-url.js';
import type { RateLimiter } from './rate-limit.js';
import { errorResponse, setHeaders, toApiError, toResponse } from './respond.js';

export interface PipelineOptions {
  store: StoreContext;
  routes: readonly RouteDefinition[];
  /** Routes answered without a key (the OpenAPI document); routed like the others. */
  publicRoutes?: readonly RouteDefinition[];
  authenticate: Authenticate;
  /** Counts each authenticated request that reaches an operation (off when absent). */
  rateLimit?: RateLimiter | undefined;
  onError: (error: unknown, request: Request) => void;
}

/**
 * The request pipeline: base path, authentication (401 before any other answer under the base
 * path), routing (404, 405 + Allow, HEAD), the route, and the one mapping of errors to responses.
 */
export function createPipeline({ store, routes, publicRoutes = [], authenticate, rateLimit, onError }: PipelineOptions) {
  const match = createRouteMatcher([...routes, ...publicRoutes], store.basePath);
  const isPublic = new Set(publicRoutes);
  const base = store.basePath;

  return async function handle(request: Request, bindings: AdapterBindings | undefined): Promise<Response> {
    let routeHeaders: Record<string, string> | undefined;
    let limitHeaders: Record<string, string> | undefined;
    try {
      const url = requestUrlOf(request, bindings);
      const path = url.pathname;
      if (base !== '' && path !== base && !path.startsWith(`${base}/`)) throw notFound();
      const found = match(request.method, path);
      // Matching has no effects. Anything but a public route checks the key before its 404 or
      // 405, so a request without one learns nothing about which paths exist.
      const auth = found?.route && isPublic.has(found.route) ? '' : authenticate(request, bindings);
      const principal = typeof auth === 'string' ? auth : await auth;
      if (!found) throw notFound();
      if (!found.route) {
        throw new ApiError(405, ErrorCode.methodNotAllowed, `${request.method} is not allowed here`, undefined, {
          allow: found.allow,
        });
      }
      const req: RouteRequest = { request, url, params: found.params, store, principal, bindings };
      routeHeaders = found.route.headers?.(req);
      if (rateLimit && principal !== '') limitHeaders = await rateLimit(principal);
      let answer = await found.route.handler(req);
      if (routeHeaders) setHeaders(answer, routeHeaders);
      if (limitHeaders) setHeaders(answer, limitHeaders);
      if (found.route.method === 'GET' && principal !== '') {
        const conditional = conditionalAnswer(request, answer, bindings);
        answer = conditional instanceof Promise ? await conditional : conditional;
      }
      return toResponse(answer, request.method, bindings);
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error.status >= 500) onError(thrown, request);
      const answer = errorResponse(error, limitHeaders ? { ...routeHeaders, ...limitHeaders } : routeHeaders);
      return toResponse(answer, request.method, bindings);
    }
  };
}

function notFound(): ApiError {
  return new ApiError(404, ErrorCode.notFound, 'no such resource');
}
