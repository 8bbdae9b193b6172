/**
 * An int8 of a row read with the driver's own parser (seed's `returningAll`), as the public types
 * want it (the int64 rule of model.ts): pg gives strings, PGlite numbers or bigints, and a
 * caller's own Pool or PGlite may have any parsers. Everything leaves as bigint.
 */
export function toBigInt(value: bigint | number | string): bigint {
  return typeof value === 'bigint' ? value : BigInt(value);
}
