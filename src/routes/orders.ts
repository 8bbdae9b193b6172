import { writeOrder } from '../http/json-write.js';
import { pageResponse } from './page-response.js';
import { cursorMatchesStatus, cursorQuery, limitQuery } from '../schemas/query.js';
import { SERVER_ERRORS, defineRoute } from './define.js';

/** `GET /store/orders` (experimental): keyset pages by id, like `GET /pets`. */
export const listOrdersRoute = defineRoute({
  method: 'GET',
  path: '/store/orders',
  operationId: 'listOrders',
  summary: 'List orders',
  description: 'Experimental. Keyset pages of orders ordered by `id`, paginated like `GET /pets`.',
  tags: ['store'],
  stability: 'experimental',
  request: { query: { limit: limitQuery, cursor: cursorQuery('orders') } },
  refine: ({ query }) => cursorMatchesStatus(query),
  responses: {
    '200': { description: 'A page of orders (a plain array).', headers: { Link: 'LinkNext' }, body: ['Order'] },
    '400': 'BadRequest',
    '401': 'Unauthorized',
    ...SERVER_ERRORS,
  },
  handler: async ({ url, store, query }) => {
    const page = await store.orders.list({ limit: query.limit, afterId: query.cursor?.afterId });
    return pageResponse(url, page, { list: 'orders', limit: query.limit }, writeOrder);
  },
});
