import type { RouteRequest, StoreContext } from '../context.js';
import { createRouteMatcher } from '../routes/router.js';
import type { RouteDefinition } from '../routes/table.js';
import type { Authenticate } from './auth.js';
import { conditionalAnswer } from './conditional.js';
import { ApiError, ErrorCode } from './errors.js';
import { requestUrlOf } from './request-url.js';
import type { RateLimiter } from './rate-limit.js';
import { errorResponse, finalResponse, setHeaders, toApiError, withoutBody } from './respond.js';

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

  return async function handle(request: Request): Promise<Response> {
    let routeHeaders: Record<string, string> | undefined;
    let limitHeaders: Record<string, string> | undefined;
    try {
      const url = requestUrlOf(request);
      const path = url.pathname;
      if (base !== '' && path !== base && !path.startsWith(`${base}/`)) throw notFound();
      const found = match(request.method, path);
      // Matching has no effects. Anything but a public route checks the key before its 404 or
      // 405, so a request without one learns nothing about which paths exist.
      const auth = found?.route && isPublic.has(found.route) ? '' : authenticate(request);
      const principal = typeof auth === 'string' ? auth : await auth;
      if (!found) throw notFound();
      if (!found.route) {
        throw new ApiError(405, ErrorCode.methodNotAllowed, `${request.method} is not allowed here`, undefined, {
          allow: found.allow,
        });
      }
      const req: RouteRequest = { request, url, params: found.params, store, principal };
      routeHeaders = found.route.headers?.(req);
      if (rateLimit && principal !== '') limitHeaders = await rateLimit(principal);
      let response = await found.route.handler(req);
      if (routeHeaders) setHeaders(response, routeHeaders);
      if (limitHeaders) setHeaders(response, limitHeaders);
      if (found.route.method === 'GET' && principal !== '') {
        const answer = conditionalAnswer(request, response);
        response = answer instanceof Promise ? await answer : answer;
      }
      return request.method === 'HEAD' ? withoutBody(response) : finalResponse(request, response);
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error.status >= 500) onError(thrown, request);
      const response = errorResponse(error, limitHeaders ? { ...routeHeaders, ...limitHeaders } : routeHeaders);
      return request.method === 'HEAD' ? withoutBody(response) : finalResponse(request, response);
    }
  };
}

function notFound(): ApiError {
  return new ApiError(404, ErrorCode.notFound, 'no such resource');
}
