import * as v from 'valibot';
import { INT64_MAX, INT64_MIN } from './int64.js';
import { NewOrderSchema } from './order.js';
import { PetName, PetStatusSchema } from './pet.js';

const INT64_INPUT_MESSAGE =
  'must be an int64: a bigint, a decimal string, or a number up to 2^53 (a larger number has lost digits already)';

/**
 * An int64 as a test writes it: a bigint, a safe-integer number or a canonical decimal string;
 * given as a bigint. A number past 2^53 is refused: it is no longer the integer that was written.
 */
const Int64Input = v.pipe(
  v.union([v.bigint(), v.pipe(v.number(), v.safeInteger()), v.pipe(v.string(), v.regex(/^-?(?:0|[1-9][0-9]*)$/))], INT64_INPUT_MESSAGE),
  v.transform((value) => BigInt(value)),
  v.minValue(INT64_MIN, 'must be within the int64 range'),
  v.maxValue(INT64_MAX, 'must be within the int64 range'),
);

/** A pet to seed: the API's own rules for name and status (schemas/pet.ts), an id allowed. */
const SeedPetSchema = v.object({
  id: v.optional(Int64Input),
  name: PetName,
  categoryId: Int64Input,
  status: v.optional(PetStatusSchema, 'available'),
});

/** An order to seed: addOrder's rules (schemas/order.ts), an id allowed. */
const SeedOrderSchema = v.object({ ...NewOrderSchema.entries, id: v.optional(Int64Input), petId: Int64Input });

/** Everything one `seed` call inserts; issue paths name each field (`pets.1.status`). */
export const SeedDataSchema = v.object({
  pets: v.optional(v.array(SeedPetSchema, 'must be an array of pets'), []),
  orders: v.optional(v.array(SeedOrderSchema, 'must be an array of orders'), []),
});
