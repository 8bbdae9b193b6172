import { type ConversionConfig, type JsonSchema, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { INT64_JSON_SCHEMA, INT64_MAX, INT64_MIN, Int64 } from '../schemas/int64.js';
import { NewOrderSchema } from '../schemas/order.js';
import { NAME_MAX, NewPetSchema, PetStatusSchema } from '../schemas/pet.js';

/**
 * JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) from the valibot schemas that validate
 * requests, so the document cannot drift from what the server accepts. int64 is `format: int64`
 * with no bound (see {@link INT64_JSON_SCHEMA}).
 */
export { INT64_JSON_SCHEMA };

/**
 * `v.check` actions have no JSON Schema form; each one the schemas use is described here, by its
 * message. An unknown check makes the conversion throw (at start-up, and in the tests), so a new
 * rule cannot be left out of the document silently.
 */
const CHECKS: Record<string, JsonSchema> = {
  [`must be 1 to ${NAME_MAX} characters`]: { minLength: 1, maxLength: NAME_MAX },
  // JSON Schema's \S is ECMAScript's: the same whitespace set as String.prototype.trim.
  'must not be blank': { pattern: '\\S' },
  'must not contain U+0000 or unpaired surrogates': {},
};

const config: ConversionConfig = {
  target: 'draft-2020-12',
  overrideSchema({ valibotSchema }) {
    if (valibotSchema.type === 'bigint') return { ...INT64_JSON_SCHEMA };
    // Dates are written as RFC 3339 text (json-write.ts).
    if (valibotSchema.type === 'date') return { type: 'string', format: 'date-time' };
    return undefined;
  },
  overrideAction({ valibotAction, jsonSchema }) {
    const action = valibotAction as { type: string; requirement?: unknown; message?: unknown };
    if (typeof action.requirement === 'bigint') {
      // Only the int64 range itself is expressed (by the format); any narrower bigint bound
      // would need a number, which we refuse to round.
      if (action.requirement === INT64_MIN || action.requirement === INT64_MAX) return jsonSchema;
      throw new Error(`petstore-router: cannot express the bigint bound ${action.requirement} in JSON Schema`);
    }
    if (action.type === 'check' && typeof action.message === 'string' && action.message in CHECKS) {
      return { ...jsonSchema, ...CHECKS[action.message] };
    }
    return undefined;
  },
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
};

const NewPet = v.omit(NewPetSchema, ['id']); // `id` is refused on create: not part of the body
const OrderStatus = NewOrderSchema.entries.status.wrapped;

/** Converts one valibot schema; the enums become `$ref`s to their components. */
export function toSchema(schema: v.GenericSchema, typeMode?: 'input'): JsonSchema {
  const {
    $schema: _,
    $defs: __,
    ...rest
  } = toJsonSchema(schema, { ...config, typeMode, definitions: { PetStatus: PetStatusSchema, OrderStatus } });
  return rest;
}

/**
 * Converts the rule of a text parameter as a client sees it: the text it sends, so the
 * conversion stops before the first transformation (`limit`'s number, `cursor`'s decoding).
 */
export function toTextSchema(schema: v.GenericSchema): JsonSchema {
  return toSchema(v.optional(schema), 'input');
}

/** The API's resources as the service writes them: every field the serialisers always write is required. */
const Pet = v.object({ id: Int64, ...NewPet.entries, status: PetStatusSchema });
const Order = v.object({
  id: Int64,
  ...NewOrderSchema.entries,
  status: OrderStatus,
  complete: NewOrderSchema.entries.complete.wrapped,
});

const DESCRIPTIONS: Record<string, Record<string, string>> = {
  Pet: {
    id: 'Unique identifier assigned by the service on creation.',
    name: "The animal's name: 1 to 255 Unicode code points, not blank, without U+0000 or unpaired surrogates.",
    categoryId: 'ID of the category the animal belongs to.',
    status: 'Availability of the animal (`available` when it was not given on creation).',
  },
  NewPet: {
    name: "The animal's name: 1 to 255 Unicode code points, not blank, without U+0000 or unpaired surrogates.",
    categoryId: 'ID of the category the animal belongs to.',
    status: 'Availability of the animal.',
  },
  Order: {
    id: 'Unique identifier of the order.',
    petId: 'ID of the ordered animal.',
    quantity: 'Number of animals ordered.',
    shipDate: 'When the order ships (RFC 3339), absent when not known.',
    status: 'Where the order stands.',
    complete: 'Whether the order is complete.',
  },
};

/** `components.schemas`: the resources, converted together so shared schemas become `$ref`s. */
export function resourceSchemas(): Record<string, JsonSchema> {
  const defs: Record<string, JsonSchema> = toJsonSchemaDefs({ PetStatus: PetStatusSchema, OrderStatus, NewPet, Pet, Order }, config);
  defs.PetStatus!.description = 'Availability of an animal.';
  defs.OrderStatus!.description = 'State of an order.';
  defs.NewPet!.description = 'The body of `POST /pets`. The service assigns `id` (sending one is a 400); unknown properties are ignored.';
  defs.Pet!.description = 'An animal, as returned by the service.';
  defs.Order!.description = 'An order of the store area.';
  for (const [name, fields] of Object.entries(DESCRIPTIONS)) {
    const properties = defs[name]!.properties as Record<string, JsonSchema>;
    for (const [field, text] of Object.entries(fields)) {
      const prop = properties[field]!;
      // A `$ref` keeps its own description beside it (allowed in 3.1); an int64 replaces the generic one.
      prop.description = prop.format === 'int64' ? `${text} ${INT64_JSON_SCHEMA.description}` : text;
    }
  }
  return defs;
}
