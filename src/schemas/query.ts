import * as v from 'valibot';
import type { ErrorDetail } from '../errors.js';
import { CURSOR_OTHER_FILTER, type CursorState, readCursor } from './cursor.js';
import { textParam } from './param.js';
import { PetStatusSchema } from './pet.js';

export const LIMIT_MIN = 1;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 20;

const LIMIT_MESSAGE = `must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}`;

const DIGITS = /^(?:0|[1-9][0-9]*)$/;

/** `limit` as sent in the query string: canonical decimal digits, 1 to 100. */
export const LimitParam = v.pipe(
  v.string(),
  v.regex(DIGITS, LIMIT_MESSAGE),
  v.transform(Number),
  v.minValue(LIMIT_MIN, LIMIT_MESSAGE),
  v.maxValue(LIMIT_MAX, LIMIT_MESSAGE),
);

/** The `limit` query parameter of the lists; out of range is a 400, never clamped. */
export const limitQuery = textParam({
  schema: LimitParam,
  default: String(LIMIT_DEFAULT),
  description: `Maximum number of items to return, ${LIMIT_MIN} to ${LIMIT_MAX}. Out of range is a 400, never clamped.`,
  // The text rule converts to a string pattern; to a client it is an integer with these bounds.
  document: { type: 'integer', minimum: LIMIT_MIN, maximum: LIMIT_MAX, default: LIMIT_DEFAULT },
});

/** The `status` filter of `GET /pets`. */
export const petStatusQuery = textParam({ schema: PetStatusSchema, description: 'Filters animals by availability status.' });

/**
 * The opaque `cursor` of a list: decoded here into the `status` filter it was issued for and the
 * last id of its page. Whether that filter is the request's is checked with the other parameters
 * (see {@link cursorMatchesStatus}).
 */
export function cursorQuery(list: CursorState['list']) {
  return textParam({
    schema: v.pipe(
      v.string(),
      v.minLength(1, 'must not be empty'),
      v.rawTransform(
        ({ dataset, addIssue, NEVER }) =>
          readCursor(dataset.value, list) ?? (addIssue({ message: 'is not a cursor issued by this list' }), NEVER),
      ),
    ),
    description: 'Opaque cursor of the next page. Take it from the `Link: rel="next"` header; never build it.',
  });
}

const OTHER_FILTER: readonly ErrorDetail[] = [CURSOR_OTHER_FILTER];

/** Cross-field rule of the lists: a cursor is only valid with the `status` filter it was issued for. */
export function cursorMatchesStatus(query: { cursor?: { status: string }; status?: string }): readonly ErrorDetail[] | undefined {
  return query.cursor !== undefined && query.cursor.status !== (query.status ?? '') ? OTHER_FILTER : undefined;
}
