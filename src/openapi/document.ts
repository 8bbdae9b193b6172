import { DEFAULT_DEPRECATED_AT, DEFAULT_SUNSET_AT } from '../deprecation.js';
import type { RouteDocumentation } from '../routes/define.js';
import { routes } from '../routes/table.js';
import { withCachingAndLimits } from './caching-and-limits.js';
import { operationObject, routeHeadersOf, toTemplate } from './operation.js';
import { deprecationHeaders, errorResponses, errorSchemas, headers } from './responses.js';
import { resourceSchemas } from './schemas.js';
import type { JsonObject, OpenApiDocument, OpenApiServer } from '../openapi-types.js';

/** Where the store serves its own document, relative to the base path. */
export const DOCUMENT_PATH = '/openapi.json';
export const DOCUMENT_OPERATION_ID = 'getOpenApiDocument';

/** `GET /openapi.json`, described like every other operation; route.ts gives it its handler. */
export const DOCUMENT_ROUTE: RouteDocumentation = {
  method: 'GET',
  path: DOCUMENT_PATH,
  operationId: DOCUMENT_OPERATION_ID,
  summary: 'This OpenAPI document',
  description: 'This document. Served without a key; turn it off with the `openapi: false` option.',
  tags: ['meta'],
  public: true,
  responses: { '200': { description: 'The OpenAPI 3.1 document.', body: { type: 'object' } } },
};

/** Options of {@link openApiDocument}. */
export interface OpenApiOptions {
  /**
   * The base path the API is served under; the default servers end in it.
   * @default '/v1'
   */
  basePath?: string;
  /**
   * The `servers` of the document; each URL should end in the base path (or be relative to the
   * document, which is served in the base path).
   * @default [{ url: '.' }]: the folder the document is served from, `{prefix}{basePath}/`
   */
  servers?: OpenApiServer[];
  /** Shown as the `Deprecation` example of `getPet`. @default new Date('2026-11-21T00:00:00Z') */
  deprecatedAt?: Date;
  /** Shown as the `Sunset` example of `getPet`. @default new Date('2030-12-05T00:00:00Z') */
  sunsetAt?: Date;
  /**
   * Describe `GET /openapi.json` (served without a key) in the document itself. The store sets it
   * from its `openapi` option, so the document describes exactly what the store answers.
   * @default true
   */
  describeSelf?: boolean;
}

/**
 * The default servers: one URL relative to the document, which OpenAPI resolves against the URL the
 * document was fetched from. The store serves it at `{prefix}{basePath}/openapi.json`, so `.` is
 * the API's base wherever a host mounts the store, and "try it" or a generated client calls the
 * server that served the document, not a placeholder host.
 */
export function defaultServers(): OpenApiServer[] {
  return [{ url: '.', description: 'The API, at the address this document was served from' }];
}

/**
 * Builds the OpenAPI 3.1 document of the API from the route definitions and the valibot schemas. The
 * result is plain JSON (no bigint): `JSON.stringify` it as is.
 *
 * @example
 * ```ts
 * import { openApiDocument } from 'petstore-router'
 * const doc = openApiDocument({ servers: [{ url: 'https://api.example.org/v1' }] })
 * console.log(JSON.stringify(doc, null, 2))
 * ```
 */
export function openApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const deprecatedAt = options.deprecatedAt ?? DEFAULT_DEPRECATED_AT;
  const sunsetAt = options.sunsetAt ?? DEFAULT_SUNSET_AT;
  const routeHeaders = (successorPath: string, successor: string) => deprecationHeaders(deprecatedAt, sunsetAt, successorPath, successor);
  const paths: Record<string, Record<string, JsonObject>> = {};
  const table = options.describeSelf === false ? routes : [...routes, DOCUMENT_ROUTE];
  for (const route of table) {
    const item = (paths[toTemplate(route.path)] ??= {});
    const operation = operationObject(route, routeHeaders);
    item[route.method.toLowerCase()] = route.public
      ? operation
      : withCachingAndLimits(route, operation, routeHeadersOf(route, routeHeaders));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pet Store API',
      version: '1.0.0',
      description:
        'Manage the animals of a pet store. Every operation needs `Authorization: Bearer <API key>`. ' +
        'Answers not tied to an operation: an unknown path is a 404 (`NotFound`), a known path with another method a 405 ' +
        '(`MethodNotAllowed`, with `Allow`), and any path under the base path without a valid key a 401 (`Unauthorized`). ' +
        'HEAD answers every GET with the same status and headers and no body. ' +
        'int64 values use the whole signed 64-bit range: parse them with a JSON parser that keeps big integers exact.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: options.servers ?? defaultServers(),
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'pets', description: 'The animals of the store.' },
      { name: 'store', description: 'The store area: orders.' },
      ...(options.describeSelf === false ? [] : [{ name: 'meta', description: 'About the API itself.' }]),
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key, sent as `Authorization: Bearer <key>`.' },
      },
      schemas: { ...resourceSchemas(), ...errorSchemas },
      responses: errorResponses(),
      headers,
    },
  };
}
