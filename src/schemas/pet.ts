import * as v from 'valibot';
import { INT64_MAX, INT64_MIN, Int64 } from './int64.js';

/** The availability values of a pet. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export const PetStatusSchema = v.picklist(PET_STATUSES, `must be one of ${PET_STATUSES.join(', ')}`);

// PostgreSQL text cannot hold U+0000, and a lone surrogate has no UTF-8 encoding: refuse both
// rather than store something other than what was sent.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

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
  v.check((s) => !UNSTORABLE.test(s), 'must not contain U+0000 or unpaired surrogates'),
);

/** The body of `POST /pets`. Unknown properties are dropped; `id` is refused (ids are ours). */
export const NewPetSchema = v.object({
  id: v.optional(v.custom<never>(() => false, 'must not be sent: the service assigns ids')),
  name: PetName,
  categoryId: Int64,
  status: v.optional(PetStatusSchema, 'available'),
});

/** What {@link NewPetSchema} gives a handler. */
export type NewPetInput = v.InferOutput<typeof NewPetSchema>;

/**
 * The fast form of {@link NewPetSchema}: its output for a body it accepts, undefined for any other
 * (valibot then decides and words the 400, so the messages have one source).
 * test/new-pet-parse.test.ts checks that the two agree.
 */
export function parseNewPet(raw: Record<string, unknown>): NewPetInput | undefined {
  if ('id' in raw) return undefined;
  const { name, categoryId, status } = raw;
  if (typeof name !== 'string' || typeof categoryId !== 'bigint') return undefined;
  if (categoryId < INT64_MIN || categoryId > INT64_MAX) return undefined;
  if (status !== undefined && !(PET_STATUSES as readonly unknown[]).includes(status)) return undefined;
  const length = codePointLength(name);
  if (length < 1 || length > NAME_MAX || name.trim().length === 0 || UNSTORABLE.test(name)) return undefined;
  return { name, categoryId, status: (status as NewPetInput['status'] | undefined) ?? 'available' };
}
