import * as v from 'valibot';
import { ApiError, ErrorCode } from '../errors.js';
import { plainResponse } from '../http/answer.js';
import { DOCUMENT_PATH } from '../openapi/document.js';
import { type RouteDefinition, defineRoute } from '../routes/define.js';
import { textParam } from '../schemas/param.js';
import { pageUrls, trailingSlashRedirect } from './relative-urls.js';
import type { ApiReference } from './types.js';

/** Where the page is served, relative to the base path. */
export const DOCS_PATH = '/docs';

/** Shared by the page's two routes: public, served by GET, not part of the API's document. */
const PAGE = { method: 'GET', summary: 'API reference page', tags: ['meta'], public: true } as const;

/** An asset's file name as the renderer names it; anything else is an ordinary 404. */
const assetName = textParam({ schema: v.string(), description: 'A file of the renderer.' });

/**
 * The public routes of the API reference page: the page and the renderer's files, without a key.
 * The page renders the store's one document (`{basePath}/openapi.json`) and names it and its
 * files by URLs relative to itself, so it works under any prefix a host mounts the store at.
 */
export function docsRoutes(reference: ApiReference): RouteDefinition[] {
  let page: string | undefined;
  return [
    defineRoute({
      ...PAGE,
      path: DOCS_PATH,
      operationId: 'getApiReference',
      description: 'The API reference page (HTML).',
      responses: { '200': { description: 'The page.', body: { type: 'string' }, mediaType: 'text/html' } },
      handler: ({ url }) => {
        page ??= reference.page(pageUrls(DOCS_PATH, DOCUMENT_PATH));
        // The router also matches `/docs/`, where the page's relative URLs would miss.
        const answer =
          trailingSlashRedirect(url.pathname, DOCS_PATH) ??
          plainResponse(200, page, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
        return Promise.resolve(answer);
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
        if (!file) throw new ApiError({ status: 404, code: ErrorCode.notFound, message: 'no such resource' });
        return plainResponse(200, file.body, { 'content-type': file.type, 'cache-control': 'public, max-age=3600' });
      },
    }),
  ];
}
