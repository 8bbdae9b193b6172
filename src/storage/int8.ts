/**
 * int8 normalisation at the repository boundary: pg gives strings, PGlite numbers or bigints,
 * and a caller's own Pool or PGlite may have any parsers. Everything leaves as bigint.
 */
export function toBigInt(value: bigint | number | string): bigint {
  return typeof value === 'bigint' ? value : BigInt(value);
}
