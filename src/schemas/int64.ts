import * as v from 'valibot';
import { textParam } from './param.js';

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * An int64 read from a JSON body. The JSON parser gives integer literals as bigint and every
 * other number (`1.0`, `1e3`, `1e309`) as a double, so only a bigint in range passes.
 */
export const Int64 = v.pipe(
  v.bigint('must be an integer (no fraction, exponent or quotes)'),
  v.minValue(INT64_MIN, 'must be within the int64 range'),
  v.maxValue(INT64_MAX, 'must be within the int64 range'),
);

const CANONICAL_INT = /^-?(?:0|[1-9][0-9]*)$/;
const INT64_TEXT_MESSAGE = 'must be a decimal int64 without leading zeros';

/**
 * int64 in JSON Schema: `format: int64` alone, no `minimum`/`maximum`. 2^63 - 1 has no exact
 * double, and most JSON parsers read `9223372036854775807` as 2^63, a bound that admits a value
 * out of range; `format: int64` already means the signed 64-bit range (see docs/decisions.md).
 */
export const INT64_JSON_SCHEMA = {
  type: 'integer',
  format: 'int64',
  description: 'Signed 64-bit integer, -9223372036854775808 to 9223372036854775807, exact past 2^53.',
} as const;

/**
 * The rule of an int64 sent as text (a path segment): canonical decimal, `-?(0|[1-9][0-9]*)`,
 * within int64. {@link parseInt64Text} decodes the same rule where no detail is worded (a cursor);
 * test/int64-text.test.ts checks they agree.
 */
export const Int64Text = v.pipe(
  v.string(),
  v.maxLength(20, INT64_TEXT_MESSAGE),
  v.regex(CANONICAL_INT, INT64_TEXT_MESSAGE),
  v.transform((text: string) => BigInt(text)),
  v.minValue(INT64_MIN, INT64_TEXT_MESSAGE),
  v.maxValue(INT64_MAX, INT64_TEXT_MESSAGE),
);

/**
 * An int64 written as text (a path segment): canonical decimal, `-?(0|[1-9][0-9]*)`, in range.
 * Returns undefined for anything else.
 */
export function parseInt64Text(text: string): bigint | undefined {
  if (text.length > 20 || !CANONICAL_INT.test(text)) return undefined;
  const n = BigInt(text);
  return n >= INT64_MIN && n <= INT64_MAX ? n : undefined;
}

/** An int64 path parameter (`/pets/:petId`): parsed to a bigint, documented as `integer`/`int64`. */
export function int64Path(description: string) {
  return textParam({ schema: Int64Text, document: { ...INT64_JSON_SCHEMA }, description });
}
