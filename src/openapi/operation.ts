import type { ErrorResponseName, RouteDocumentation, SuccessResponse } from '../routes/define.js';
import type { TextParams } from '../schemas/param.js';
import { errorKinds } from '../error-kinds.js';
import { errorResponse } from './responses.js';
import { toTextSchema } from './schemas.js';
import type { JsonObject } from '../openapi-types.js';

const json = (schema: JsonObject) => ({ 'application/json': { schema } });
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `/pets/:petId` (itty-router) to `/pets/{petId}` (OpenAPI). */
export const toTemplate = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function parameters(location: 'path' | 'query' | 'header', params: TextParams | undefined): JsonObject[] {
  return Object.entries(params ?? {}).map(([name, param]) => ({
    name,
    in: location,
    required: location === 'path',
    description: param.description,
    schema: param.document ?? toTextSchema(param.schema),
  }));
}

/** `[name]`: a plain array of a named schema (Array.isArray alone does not narrow a readonly tuple). */
function isList(body: SuccessResponse['body']): body is readonly [string] {
  return Array.isArray(body);
}

function success(response: SuccessResponse): JsonObject {
  const { body } = response;
  const schema = typeof body === 'string' ? schemaRef(body) : isList(body) ? { type: 'array', items: schemaRef(body[0]) } : body;
  const headers =
    response.headers &&
    Object.fromEntries(Object.entries(response.headers).map(([name, component]) => [name, { $ref: `#/components/headers/${component}` }]));
  const content = response.mediaType === undefined ? json(schema) : { [response.mediaType]: { schema } };
  return { description: response.description, ...(headers ? { headers } : {}), content };
}

/**
 * A response by status. An error is a `$ref` to `components.responses`, except on an operation
 * that adds headers to its answers (a `$ref` cannot carry them): there it is written inline with
 * them. 401 is answered before the route is known, so it never carries the route's headers.
 */
function response(
  status: string,
  spec: ErrorResponseName | SuccessResponse,
  routeHeaders: Record<string, JsonObject> | undefined,
): JsonObject {
  if (typeof spec !== 'string') {
    const described = success(spec);
    return routeHeaders ? { ...described, headers: { ...(described.headers as JsonObject | undefined), ...routeHeaders } } : described;
  }
  if (!routeHeaders || status === '401') return { $ref: `#/components/responses/${spec}` };
  const inline = errorResponse(errorKinds[spec]);
  return { ...inline, headers: { ...(inline.headers as JsonObject | undefined), ...routeHeaders } };
}

/** The headers every answer after authentication carries: a deprecated operation's, else none. */
export function routeHeadersOf(
  route: RouteDocumentation,
  deprecationHeaders: (successorPath: string, note: string) => Record<string, JsonObject>,
): Record<string, JsonObject> | undefined {
  const successor = route.deprecation?.successor;
  return successor && deprecationHeaders(successor.path, `\`${successor.method} ${successor.path}\` ${successor.note}`);
}

/**
 * The operation object of one definition. `deprecationHeaders` documents the headers of a
 * deprecated operation's answers (given its successor's path).
 */
export function operationObject(
  route: RouteDocumentation,
  deprecationHeaders: (successorPath: string, note: string) => Record<string, JsonObject>,
): JsonObject {
  const routeHeaders = routeHeadersOf(route, deprecationHeaders);
  const request = route.request ?? {};
  const params = [...parameters('path', request.params), ...parameters('query', request.query), ...parameters('header', request.headers)];
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: route.tags,
    ...(route.deprecation ? { deprecated: true } : {}),
    ...(route.stability ? { 'x-stability': route.stability } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(request.body ? { requestBody: { required: true, content: json(schemaRef(request.body.component)) } } : {}),
    ...(route.public ? { security: [] } : {}),
    responses: Object.fromEntries(Object.entries(route.responses).map(([status, spec]) => [status, response(status, spec, routeHeaders)])),
  };
}
