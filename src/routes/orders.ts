import type { RouteRequest } from '../context.js';
import { writeOrder } from '../http/json-write.js';
import { parseQuery } from '../http/query.js';
import { decodeCursor } from '../pagination/cursor.js';
import type { Answer } from '../http/respond.js';
import { pageResponse } from '../pagination/page-response.js';
import { ListOrdersQuerySchema } from '../schemas/query.js';
import { listOrders } from '../storage/orders.js';

/** `GET /store/orders` (experimental): keyset pages by id, like `GET /pets`. */
export async function listOrdersRoute({ url, store }: RouteRequest): Promise<Answer> {
  const query = parseQuery(url.searchParams, ListOrdersQuerySchema);
  const limit = Number(query.limit);
  const afterId = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'orders', '');
  const page = await listOrders(store.db, { limit, afterId });
  return pageResponse(url, page, { list: 'orders', limit }, writeOrder);
}
