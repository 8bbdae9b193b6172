import type { RequestShape, RouteDefinition, RouteSpec } from './definition.js';
import { compileHandler } from './input.js';

export type {
  ErrorResponseName,
  SuccessResponse,
  RequestShape,
  RouteDocumentation,
  RouteInput,
  RouteSpec,
  RouteDefinition,
} from './definition.js';

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
 *     const order = await store.orders.find(params.orderId) // params.orderId: bigint
 *     if (!order) throw new ApiError({ status: 404, code: ErrorCode.notFound, message: `order ${params.orderId} does not exist` })
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
