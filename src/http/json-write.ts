/**
 * The JSON text the store writes. `JSON.stringify` throws on bigint, so int64 fields are written
 * by per-type serialisers: exact over the whole int64 range.
 */

import type { OrderRecord, PetRecord, StoredOrder, StoredPet } from '../model.js';

/** Writes a string as a JSON string literal. */
export const jsonString = (s: string): string => JSON.stringify(s);

/** Writes an array of already-serialised JSON values. */
export function jsonArray<T>(items: readonly T[], write: (item: T) => string): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) out += (i === 0 ? '' : ',') + write(items[i]!);
  return out + ']';
}

/**
 * Writes a Pet. int64 fields are a bigint (exact by construction) or, from the repository,
 * PostgreSQL's canonical decimal text (the int64 rule of model.ts): both print as the exact JSON
 * integer, so no number type ever rounds them.
 */
export function writePet(p: StoredPet | PetRecord): string {
  return `{"id":${p.id},"name":${jsonString(p.name)},"categoryId":${p.categoryId},"status":"${p.status}"}`;
}

/** Writes an Order (int64 fields as for {@link writePet}); `shipDate` as RFC 3339 date-time, omitted when unset. */
export function writeOrder(o: StoredOrder | OrderRecord): string {
  const ship = o.shipDate ? `,"shipDate":"${o.shipDate.toISOString()}"` : '';
  return `{"id":${o.id},"petId":${o.petId},"quantity":${o.quantity}${ship},"status":"${o.status}","complete":${o.complete}}`;
}
