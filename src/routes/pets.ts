import type { RouteRequest } from '../context.js';
import { deprecationHeaders, isSunset } from '../deprecation.js';
import { readJsonObject } from '../http/body.js';
import { ApiError, ErrorCode, invalidRequest } from '../http/errors.js';
import { writePet } from '../http/json-write.js';
import { parseQuery } from '../http/query.js';
import { jsonResponse } from '../http/respond.js';
import { decodeCursor } from '../pagination/cursor.js';
import { pageResponse } from '../pagination/page-response.js';
import { parseInt64Text } from '../schemas/int64.js';
import { validate } from '../schemas/issues.js';
import { NewPetSchema } from '../schemas/pet.js';
import { ListPetsQuerySchema } from '../schemas/query.js';
import { findPet, insertPet, listPets } from '../storage/pets.js';

/** `GET /pets`: keyset pages by id, optional status filter, `Link rel="next"` while more exist. */
export async function listPetsRoute({ request, url, store }: RouteRequest): Promise<Response> {
  const query = parseQuery(url.searchParams, ListPetsQuerySchema);
  const limit = Number(query.limit);
  const afterId = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'pets', query.status ?? '');
  const page = await listPets(store.db, { limit, status: query.status, afterId }, request.signal);
  return pageResponse(url, page, { list: 'pets', limit, status: query.status }, writePet);
}

/** `POST /pets`: 201 with the stored pet and its Location. */
export async function createPetRoute({ request, url, store }: RouteRequest): Promise<Response> {
  const body = await readJsonObject(request);
  const newPet = validate(NewPetSchema, body);
  const pet = await insertPet(store.db, newPet, request.signal);
  return jsonResponse(201, writePet(pet), { location: `${url.origin}${store.basePath}/pets/${pet.id}` });
}

/** Headers of every answer of the deprecated `GET /pets/{petId}`, errors included. */
export function getPetHeaders({ url, store }: RouteRequest): Record<string, string> {
  return deprecationHeaders(store.deprecation, `${url.origin}${store.basePath}/pets`);
}

/** `GET /pets/{petId}` (deprecated): 410 Gone from the sunset instant on. */
export async function getPetRoute({ request, params, store }: RouteRequest): Promise<Response> {
  if (isSunset(store.deprecation, store.now())) {
    throw new ApiError(410, ErrorCode.gone, 'GET /pets/{petId} has been removed; use GET /pets');
  }
  const id = parseInt64Text(params.petId!);
  if (id === undefined) throw invalidRequest([{ path: 'petId', message: 'must be a decimal int64 without leading zeros' }]);
  const pet = await findPet(store.db, id, request.signal);
  if (!pet) throw new ApiError(404, ErrorCode.notFound, `pet ${id} does not exist`);
  return jsonResponse(200, writePet(pet));
}
