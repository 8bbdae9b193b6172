import { jsonResponse } from '../http/answer.js';
import { type RouteDefinition, defineRoute } from '../routes/define.js';
import { DOCUMENT_ROUTE, type OpenApiOptions, openApiDocument } from './document.js';

/**
 * The route of `GET {basePath}/openapi.json`: the document is built and serialised on its first
 * request, then kept, so serving it costs one Response. Not at store creation: building it takes
 * milliseconds, which every test that creates a store would pay for a document it never asks for. The
 * pipeline answers it without a key; other methods get the usual 401, then 405 + Allow.
 */
export function openApiRoute(options: OpenApiOptions): RouteDefinition {
  let body: string | undefined;
  return defineRoute({
    ...DOCUMENT_ROUTE,
    handler: () => Promise.resolve(jsonResponse(200, (body ??= JSON.stringify(openApiDocument({ ...options, describeSelf: true }))))),
  });
}
