import * as v from 'valibot';

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

/**
 * An int64 written as text (a path segment): canonical decimal, `-?(0|[1-9][0-9]*)`, in range.
 * Returns undefined for anything else.
 */
export function parseInt64Text(text: string): bigint | undefined {
  if (text.length > 20 || !CANONICAL_INT.test(text)) return undefined;
  const n = BigInt(text);
  return n >= INT64_MIN && n <= INT64_MAX ? n : undefined;
}
