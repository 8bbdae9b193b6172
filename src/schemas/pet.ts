import * as v from 'valibot';
import { DEFAULT_PET_STATUS, PET_STATUSES } from '../model.js';
import { Int64 } from './int64.js';

export const PetStatusSchema = v.picklist(PET_STATUSES, `must be one of ${PET_STATUSES.join(', ')}`);

// PostgreSQL text cannot hold U+0000, and a lone surrogate has no UTF-8 encoding: refuse both
// rather than store something other than what was sent.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Counts Unicode code points (not UTF-16 units), so an emoji counts as one character. */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

export const NAME_MAX = 255;

export const PetName = v.pipe(
  v.string('must be a string'),
  v.check((s) => codePointLength(s) >= 1 && codePointLength(s) <= NAME_MAX, `must be 1 to ${NAME_MAX} characters`),
  v.check((s) => s.trim().length > 0 || s.length === 0, 'must not be blank'),
  v.check((s) => !s.includes('\u0000') && !LONE_SURROGATE.test(s), 'must not contain U+0000 or unpaired surrogates'),
);

/** The body of `POST /pets`. Unknown properties are dropped; `id` is refused (ids are ours). */
export const NewPetSchema = v.object({
  id: v.optional(v.custom<never>(() => false, 'must not be sent: the service assigns ids')),
  name: PetName,
  categoryId: Int64,
  status: v.optional(PetStatusSchema, DEFAULT_PET_STATUS),
});

/** What {@link NewPetSchema} gives a handler. */
export type NewPetInput = v.InferOutput<typeof NewPetSchema>;
