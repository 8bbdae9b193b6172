import type * as v from 'valibot';
import { MAX_BODY_BYTES } from '../http/body.js';
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN, LimitParam, ListOrdersQuerySchema, ListPetsQuerySchema } from '../schemas/query.js';
import { errorKinds, errorResponse } from './responses.js';
import { INT64_JSON_SCHEMA, toSchema } from './schemas.js';
import type { JsonObject } from './types.js';

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const json = (schema: JsonObject) => ({ 'application/json': { schema } });

const PARAMETER_TEXT: Record<string, string> = {
  limit: `Maximum number of items to return, ${LIMIT_MIN} to ${LIMIT_MAX}. Out of range is a 400, never clamped.`,
  status: 'Filters animals by availability status.',
  cursor: 'Opaque cursor of the next page. Take it from the `Link: rel="next"` header; never build it.',
};

type QuerySchema = typeof ListPetsQuerySchema | typeof ListOrdersQuerySchema;

/**
 * Query parameters from a query schema, one per entry. `limit` is checked as text and converted
 * with a transform (which JSON Schema cannot state), so its integer form is written from the
 * same constants the schema uses.
 */
function queryParameters(schema: QuerySchema): JsonObject[] {
  return Object.entries(schema.entries).map(([name, entry]) => {
    const inner = (entry as { wrapped: v.GenericSchema }).wrapped;
    const converted =
      inner === LimitParam
        ? { type: 'integer', minimum: LIMIT_MIN, maximum: LIMIT_MAX, default: LIMIT_DEFAULT }
        : toSchema(entry as v.GenericSchema);
    return { name, in: 'query', required: false, description: PARAMETER_TEXT[name] ?? name, schema: converted };
  });
}

/** What the route table does not say about an operation: its parameters, body and answers. */
export interface OperationShape {
  tags: string[];
  description: string;
  parameters?: JsonObject[];
  requestBody?: JsonObject;
  responses: Record<string, JsonObject>;
  /** Added to every response after authentication (all but 401), e.g. deprecation headers. */
  routeHeaders?: boolean;
}

const serverErrors = { '500': ref('InternalError'), '503': ref('ServiceUnavailable') };

/** By operationId. document.ts throws if the route table has an operation missing here. */
export function operationShapes(): Record<string, OperationShape> {
  return {
    listPets: {
      tags: ['pets'],
      description: 'Keyset pages of animals ordered by `id`. While more exist, `Link: rel="next"` carries the next page.',
      parameters: queryParameters(ListPetsQuerySchema),
      responses: {
        '200': {
          description: 'A page of animals (a plain array).',
          headers: { Link: { $ref: '#/components/headers/LinkNext' } },
          content: json({ type: 'array', items: { $ref: '#/components/schemas/Pet' } }),
        },
        '400': ref('BadRequest'),
        '401': ref('Unauthorized'),
        ...serverErrors,
      },
    },
    createPet: {
      tags: ['pets'],
      description: `Adds an animal. The body is \`application/json\`, at most ${MAX_BODY_BYTES} bytes.`,
      parameters: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes a retry safe: a repeat with the same key and body replays the first answer (with ' +
            '`Idempotent-Replayed: true`) instead of adding a second animal. 1 to 255 visible ASCII characters, ' +
            'optionally as a quoted string; remembered per API key for 24 hours by default.',
          schema: { type: 'string', minLength: 1, maxLength: 257 },
        },
      ],
      requestBody: { required: true, content: json({ $ref: '#/components/schemas/NewPet' }) },
      responses: {
        '201': {
          description: 'Animal added; the body carries the assigned `id`.',
          headers: {
            Location: { $ref: '#/components/headers/Location' },
            'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' },
          },
          content: json({ $ref: '#/components/schemas/Pet' }),
        },
        '400': ref('BadRequest'),
        '401': ref('Unauthorized'),
        '409': ref('Conflict'),
        '413': ref('PayloadTooLarge'),
        '415': ref('UnsupportedMediaType'),
        '422': ref('UnprocessableContent'),
        ...serverErrors,
      },
    },
    getPet: {
      tags: ['pets'],
      description:
        'Deprecated: use `GET /pets` with the `status` filter. Every answer after authentication carries ' +
        '`Deprecation`, `Sunset` and `Link: rel="successor-version"`; from the sunset on it answers 410.',
      routeHeaders: true,
      parameters: [
        {
          name: 'petId',
          in: 'path',
          required: true,
          description: 'ID of the animal: canonical decimal (`-?(0|[1-9][0-9]*)`), within int64. Anything else is a 400.',
          schema: { ...INT64_JSON_SCHEMA },
        },
      ],
      responses: {
        '200': { description: 'The requested animal.', content: json({ $ref: '#/components/schemas/Pet' }) },
        '400': errorResponse(errorKinds.BadRequest!),
        '401': ref('Unauthorized'),
        '404': errorResponse(errorKinds.NotFound!),
        '410': errorResponse(errorKinds.Gone!),
        '500': errorResponse(errorKinds.InternalError!),
        '503': errorResponse(errorKinds.ServiceUnavailable!),
      },
    },
    listOrders: {
      tags: ['store'],
      description: 'Experimental. Keyset pages of orders ordered by `id`, paginated like `GET /pets`.',
      parameters: queryParameters(ListOrdersQuerySchema),
      responses: {
        '200': {
          description: 'A page of orders (a plain array).',
          headers: { Link: { $ref: '#/components/headers/LinkNext' } },
          content: json({ type: 'array', items: { $ref: '#/components/schemas/Order' } }),
        },
        '400': ref('BadRequest'),
        '401': ref('Unauthorized'),
        ...serverErrors,
      },
    },
  };
}
