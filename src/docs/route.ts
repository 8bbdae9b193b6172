import { ApiError, ErrorCode } from '../http/errors.js';
import { jsonResponse, plainResponse } from '../http/respond.js';
import { openApiDocument, type OpenApiOptions } from '../openapi/document.js';
import type { RouteDefinition } from '../routes/table.js';
import type { ApiReference } from './types.js';

/** Where the page is served, relative to the base path. */
export const DOCS_PATH = '/docs';

/**
 * The public routes of the API reference page: the page, the OpenAPI document it renders (its
 * only server is the base path on the page's own origin, so "try it" calls this store and nothing
 * else, whatever the `openapi` option), and the renderer's files. No key, like the document.
 */
export function docsRoutes(reference: ApiReference, options: OpenApiOptions & { basePath: string }): RouteDefinition[] {
  const base = `${options.basePath}${DOCS_PATH}`;
  let page: string | undefined;
  let document: string | undefined;
  const route = (path: string, operationId: string, handler: RouteDefinition['handler']): RouteDefinition => ({
    method: 'GET',
    path,
    operationId,
    summary: 'API reference page',
    handler,
  });
  return [
    route(DOCS_PATH, 'getApiReference', async () => {
      page ??= reference.page({ document: `${base}/openapi.json`, assets: base });
      return plainResponse(200, page, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    }),
    route(`${DOCS_PATH}/openapi.json`, 'getApiReferenceDocument', async () => {
      document ??= JSON.stringify(openApiDocument({ ...options, servers: [{ url: options.basePath || '/' }], describeSelf: false }));
      return jsonResponse(200, document);
    }),
    route(`${DOCS_PATH}/:asset`, 'getApiReferenceAsset', async ({ params }) => {
      const file = await reference.asset(params.asset!);
      if (!file) throw new ApiError(404, ErrorCode.notFound, 'no such resource');
      return plainResponse(200, file.body, { 'content-type': file.type, 'cache-control': 'public, max-age=3600' });
    }),
  ];
}
