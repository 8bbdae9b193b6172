import { ApiError, ErrorCode } from '../errors.js';
import { jsonString, writePet } from '../http/json-write.js';
import { MAX_BODY_BYTES } from '../http/body.js';
import { jsonResponse } from '../http/answer.js';
import type { PetRecord } from '../model.js';
import { pageResponse } from './page-response.js';
import { int64Path } from '../schemas/int64.js';
import { NewPetSchema } from '../schemas/pet.js';
import { cursorMatchesStatus, cursorQuery, limitQuery, petStatusQuery } from '../schemas/query.js';
import type { StoredResponse } from '../storage/idempotency.js';
import { SERVER_ERRORS, defineRoute } from './define.js';
import { fingerprint, idempotencyKeyHeader, idempotent } from './idempotency.js';

/** `GET /pets`: keyset pages by id, optional status filter, `Link rel="next"` while more exist. */
export const listPetsRoute = defineRoute({
  method: 'GET',
  path: '/pets',
  operationId: 'listPets',
  summary: 'List all animals',
  description: 'Keyset pages of animals ordered by `id`. While more exist, `Link: rel="next"` carries the next page.',
  tags: ['pets'],
  request: { query: { limit: limitQuery, status: petStatusQuery, cursor: cursorQuery('pets') } },
  refine: ({ query }) => cursorMatchesStatus(query),
  responses: {
    '200': { description: 'A page of animals (a plain array).', headers: { Link: 'LinkNext' }, body: ['Pet'] },
    '400': 'BadRequest',
    '401': 'Unauthorized',
    ...SERVER_ERRORS,
  },
  handler: async ({ url, store, query }) => {
    const { limit, status } = query;
    const page = await store.pets.list({ limit, status, afterId: query.cursor?.afterId });
    return pageResponse(url, page, { list: 'pets', limit, status }, writePet);
  },
});

/**
 * `POST /pets`: 201 with the stored pet and its Location. With an `Idempotency-Key`, a retry
 * replays the first answer (see routes/idempotency.ts). Body errors (415, 413, malformed JSON)
 * come first; then one 400 names every bad field, the key included; only then is the key claimed.
 */
export const createPetRoute = defineRoute({
  method: 'POST',
  path: '/pets',
  operationId: 'createPet',
  summary: 'Add an animal',
  description: `Adds an animal. The body is \`application/json\`, at most ${MAX_BODY_BYTES} bytes.`,
  tags: ['pets'],
  request: {
    headers: { 'Idempotency-Key': idempotencyKeyHeader },
    body: { schema: NewPetSchema, component: 'NewPet' },
  },
  responses: {
    '201': {
      description: 'Animal added; the body carries the assigned `id`.',
      headers: { Location: 'Location', 'Idempotent-Replayed': 'IdempotentReplayed' },
      body: 'Pet',
    },
    '400': 'BadRequest',
    '401': 'Unauthorized',
    '408': 'RequestTimeout',
    '409': 'Conflict',
    '413': 'PayloadTooLarge',
    '415': 'UnsupportedMediaType',
    '422': 'UnprocessableContent',
    ...SERVER_ERRORS,
  },
  handler: (req) => {
    const { url, store, body: newPet } = req;
    const key = req.headers['Idempotency-Key'];
    const created = (pet: PetRecord) =>
      ({ status: 201, body: writePet(pet), location: `${url.origin}${store.basePath}/pets/${pet.id}` }) satisfies StoredResponse;
    if (key === undefined) {
      // Without a key nothing is remembered: the answer goes out as built, no idempotency record.
      // (A then, not an async function: no generator to resume per create.)
      return store.pets.insert(newPet).then((pet) => {
        const { status, body, location } = created(pet);
        return jsonResponse(status, body, { location });
      });
    }
    // Same NewPet after validation = same request: key order, spacing, unknown properties and an
    // omitted status (stored as "available") do not change the fingerprint.
    const canonical = `POST /pets\n{"name":${jsonString(newPet.name)},"categoryId":${newPet.categoryId},"status":"${newPet.status}"}`;
    return idempotent(req, key, fingerprint(canonical), async (tx) => created(await tx.pets.insert(newPet)));
  },
});

/** `GET /pets/{petId}` (deprecated): 410 Gone from the sunset instant on. */
export const getPetRoute = defineRoute({
  method: 'GET',
  path: '/pets/:petId',
  operationId: 'getPet',
  summary: 'Get an animal (deprecated)',
  description:
    'Deprecated: use `GET /pets` with the `status` filter. Every answer after authentication carries ' +
    '`Deprecation`, `Sunset` and `Link: rel="successor-version"`; from the sunset on it answers 410.',
  tags: ['pets'],
  deprecation: { successor: { method: 'GET', path: '/pets', note: 'with the `status` filter' } },
  request: {
    params: { petId: int64Path('ID of the animal: canonical decimal (`-?(0|[1-9][0-9]*)`), within int64. Anything else is a 400.') },
  },
  responses: {
    '200': { description: 'The requested animal.', body: 'Pet' },
    '400': 'BadRequest',
    '401': 'Unauthorized',
    '404': 'NotFound',
    '410': 'Gone',
    ...SERVER_ERRORS,
  },
  handler: ({ params, store }) =>
    store.pets.find(params.petId).then((pet) => {
      if (!pet) throw new ApiError({ status: 404, code: ErrorCode.notFound, message: `pet ${params.petId} does not exist` });
      return jsonResponse(200, writePet(pet));
    }),
});
