import * as v from 'valibot';
import { PetStatusSchema } from './pet.js';

export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 20;

/** `limit` as sent in the query string: canonical decimal digits, 1 to 100. */
export const LimitParam = v.pipe(
  v.string(),
  v.regex(/^(?:0|[1-9][0-9]*)$/, `must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}`),
  v.transform(Number),
  v.minValue(LIMIT_MIN, `must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}`),
  v.maxValue(LIMIT_MAX, `must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}`),
);

/** The opaque cursor; decoded and checked by `pagination/cursor.ts`. */
export const CursorParam = v.pipe(v.string(), v.minLength(1, 'must not be empty'));

/** Query of `GET /pets`. Unknown parameters are ignored. */
export const ListPetsQuerySchema = v.object({
  limit: v.optional(LimitParam, String(LIMIT_DEFAULT)),
  status: v.optional(PetStatusSchema),
  cursor: v.optional(CursorParam),
});

/** Query of `GET /store/orders`. */
export const ListOrdersQuerySchema = v.object({
  limit: v.optional(LimitParam, String(LIMIT_DEFAULT)),
  cursor: v.optional(CursorParam),
});
