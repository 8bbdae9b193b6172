import * as v from 'valibot';
import { DEFAULT_ORDER_STATUS, ORDER_STATUSES } from '../model.js';
import { Int64 } from './int64.js';

/** Input of `addOrder` (orders are written through the library, not over HTTP). */
export const NewOrderSchema = v.object({
  petId: Int64,
  quantity: v.pipe(
    v.number('must be a number'),
    v.integer('must be an integer'),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(2 ** 31 - 1, 'must fit in int32'),
  ),
  shipDate: v.optional(v.pipe(v.date('must be a valid Date'))),
  status: v.optional(v.picklist(ORDER_STATUSES, `must be one of ${ORDER_STATUSES.join(', ')}`), DEFAULT_ORDER_STATUS),
  complete: v.optional(v.boolean('must be a boolean'), false),
});
