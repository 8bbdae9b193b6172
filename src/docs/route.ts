import * as v from 'valibot';
import { ApiError, ErrorCode } from '../errors.js';
import { jsonResponse, plainResponse } from '../http/answer.js';
import { type OpenApiOptions, openApiDocument } from '../openapi/document.js';
import { type RouteDefinition, defineRoute } from '../routes/define.js';
import { textParam } from '../schemas/param.js';
import type { ApiReference } from './types.js';

/** Where the page is served, relative to the base path. */
export const DOCS_PATH = '/docs';

/** Shared by the page's three routes: public, served by GET, not part of the API's document. */
const PAGE = { method: 'GET', summary: 'API reference page', tags: ['meta'], public: true } as const;

/** An asset's file name as the renderer names it; anything else is an ordinary 404. */
const assetName = textParam({ schema: v.string(), description: 'A file of the renderer.' });

/**
 * The public routes of the API reference page: the page, the OpenAPI document it renders (its
 * only server is the base path on the page's own origin, so "try it" calls this store and nothing
 * else, whatever the `openapi` option), and the renderer's files. No key, like the document.
 */
export function docsRoutes(reference: ApiReference, options: OpenApiOptions & { basePath: string }): RouteDefinition[] {
  const base = `${options.basePath}${DOCS_PATH}`;
  let page: string | undefined;
  let document: string | undefined;
  return [
    defineRoute({
      ...PAGE,
      path: DOCS_PATH,
      operationId: 'getApiReference',
      description: 'The API reference page (HTML).',
      responses: { '200': { description: 'The page.', body: { type: 'string' }, mediaType: 'text/html' } },
      handler: () => {
        page ??= reference.page({ document: `${base}/openapi.json`, assets: base });
        return Promise.resolve(plainResponse(200, page, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }));
      },
    }),
    defineRoute({
      ...PAGE,
      path: `${DOCS_PATH}/openapi.json`,
      operationId: 'getApiReferenceDocument',
      description: 'The OpenAPI document the page renders, with the page origin as its server.',
      responses: { '200': { description: 'The OpenAPI 3.1 document.', body: { type: 'object' } } },
      handler: () => {
        document ??= JSON.stringify(openApiDocument({ ...options, servers: [{ url: options.basePath || '/' }], describeSelf: false }));
        return Promise.resolve(jsonResponse(200, document));
      },
    }),
    defineRoute({
      ...PAGE,
      path: `${DOCS_PATH}/:asset`,
      operationId: 'getApiReferenceAsset',
      description: 'A file of the renderer.',
      request: { params: { asset: assetName } },
      responses: { '200': { description: 'The file.', body: { type: 'string' }, mediaType: 'application/octet-stream' }, '404': 'NotFound' },
      handler: async ({ params }) => {
        const file = await reference.asset(params.asset);
        if (!file) throw new ApiError(404, ErrorCode.notFound, 'no such resource');
        return plainResponse(200, file.body, { 'content-type': file.type, 'cache-control': 'public, max-age=3600' });
      },
    }),
  ];
}
