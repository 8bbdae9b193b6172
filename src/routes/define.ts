import type * as v from 'valibot';
import type { RouteHandler, RouteRequest } from '../context.js';
import type { ErrorDetail } from '../http/errors.js';
import type { Answer } from '../http/respond.js';
import type { errorKinds } from '../openapi/responses.js';
import type { JsonObject } from '../openapi/types.js';
import type { ParsedOptional, ParsedPath, TextParams } from '../schemas/param.js';
import { compileHandler } from './input.js';

/** An error answer, by its name in `components.responses` (`errorKinds` in src/openapi/responses.ts). */
export type ErrorResponseName = keyof typeof errorKinds;

/** A success answer of an operation, as the document describes it. */
export interface SuccessResponse {
  description: string;
  /** The body: a `components.schemas` name, `[name]` for a plain array of it, or a JSON Schema. */
  body: string | readonly [string] | JsonObject;
  /** The body's media type. @default 'application/json' */
  mediaType?: string;
  /** Header name to its `components.headers` name, e.g. `{ Link: 'LinkNext' }`. */
  headers?: Readonly<Record<string, string>>;
}

/** What a request carries besides its path: each part validated before the handler runs. */
export interface RequestShape {
  /** Path parameters, named as in `path` (`/pets/:petId` needs `petId`). */
  params?: TextParams;
  query?: TextParams;
  /** Request headers, by their documented name (`Idempotency-Key`). */
  headers?: TextParams;
  /** A JSON object body (415, 413 and malformed JSON are answered before validation). */
  body?: {
    schema: v.GenericSchema;
    component: string;
    /**
     * Optional fast parse that must agree with `schema` (a differential test checks it): the
     * schema's output, or undefined for anything `schema` refuses. Then valibot runs only to word
     * the 400.
     */
    parse?: (raw: Record<string, unknown>) => unknown;
  };
}

/** Everything about an operation but its handler: routing, validation and the document read it. */
export interface RouteDocumentation<R extends RequestShape = RequestShape> {
  method: 'GET' | 'POST';
  /** itty-router pattern, relative to the base path: `/pets/:petId`. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tags: readonly string[];
  /** `x-stability` in the document. */
  stability?: 'experimental' | 'beta';
  /**
   * Deprecated in favour of `successor`: every answer after authentication carries `Deprecation`,
   * `Sunset` and `Link: rel="successor-version"` (documented on every response but 401), and from
   * the store's sunset on the operation answers 410 before reading its input.
   */
  deprecation?: { successor: { method: 'GET' | 'POST'; path: string; note: string } };
  /** Served without a key (`security: []` in the document). The store passes it as a public route. */
  public?: boolean;
  request?: R;
  /** By status. Each status the operation can answer is listed; 401 is answered before routing. */
  responses: Readonly<Record<string, ErrorResponseName | SuccessResponse>>;
}

type BodyOf<R extends RequestShape> = R['body'] extends { schema: infer S extends v.GenericSchema } ? v.InferOutput<S> : undefined;

/** What the handler receives: the request and its parts, parsed and typed by the definition. */
export interface RouteInput<R extends RequestShape = RequestShape> extends Omit<RouteRequest, 'params'> {
  params: ParsedPath<R['params']>;
  query: ParsedOptional<R['query']>;
  headers: ParsedOptional<R['headers']>;
  body: BodyOf<R>;
}

/** One operation in one place: {@link defineRoute} takes it. */
export interface RouteSpec<R extends RequestShape> extends RouteDocumentation<R> {
  /** Rules across parameters, run once each one is valid on its own; their details join the 400. */
  refine?: (input: Pick<RouteInput<R>, 'params' | 'query' | 'headers'>) => readonly ErrorDetail[] | undefined;
  handler: (input: RouteInput<R>) => Promise<Answer>;
}

/** A defined operation, as the route table, the pipeline and the document hold it. */
export interface RouteDefinition extends RouteDocumentation {
  /** Validates the request against the definition, then runs the typed handler. */
  handler: RouteHandler;
  /** Headers added to every answer of this operation once authenticated, errors included. */
  headers?: (req: RouteRequest) => Record<string, string>;
}

/**
 * Defines one operation: method, path, request parts, answers and handler together. Routing,
 * 405/Allow, HEAD, validation (one 400 naming every bad field, path parameters included), the
 * OpenAPI document and the handler's typed input all come from it.
 *
 * @example
 * ```ts
 * export const getOrder = defineRoute({
 *   method: 'GET', path: '/store/orders/:orderId', operationId: 'getOrder',
 *   summary: 'Get an order', description: 'One order by id.', tags: ['store'],
 *   request: { params: { orderId: int64Path('ID of the order.') } },
 *   responses: { '200': { description: 'The order.', body: 'Order' }, '400': 'BadRequest', '401': 'Unauthorized', '404': 'NotFound', ...SERVER_ERRORS },
 *   handler: async ({ params, store }) => {
 *     const order = await findOrder(store.db, params.orderId) // params.orderId: bigint
 *     if (!order) throw new ApiError(404, ErrorCode.notFound, `order ${params.orderId} does not exist`)
 *     return jsonResponse(200, writeOrder(order))
 *   },
 * })
 * ```
 */
export function defineRoute<const R extends RequestShape = Record<never, never>>(spec: RouteSpec<R>): RouteDefinition {
  const { handler: _typed, refine: _refine, ...documentation } = spec;
  return compileHandler(documentation, spec);
}

/** The 500 and 503 every operation that reaches the database can answer. */
export const SERVER_ERRORS = { '500': 'InternalError', '503': 'ServiceUnavailable' } as const;
