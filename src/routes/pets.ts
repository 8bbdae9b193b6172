import type { Kysely } from 'kysely';
import * as v from 'valibot';
import type { RouteRequest } from '../context.js';
import { deprecationHeaders, isSunset } from '../deprecation.js';
import { readJsonObject } from '../http/body.js';
import { ApiError, ErrorCode, invalidRequest } from '../http/errors.js';
import { requestHeader } from '../http/header.js';
import { jsonString, writePet } from '../http/json-write.js';
import { parseQuery } from '../http/query.js';
import { type Answer, jsonResponse } from '../http/respond.js';
import type { PetRecord } from '../model.js';
import { decodeCursor } from '../pagination/cursor.js';
import { pageResponse } from '../pagination/page-response.js';
import { parseInt64Text } from '../schemas/int64.js';
import { issuesToDetails } from '../schemas/issues.js';
import { NewPetSchema } from '../schemas/pet.js';
import { ListPetsQuerySchema } from '../schemas/query.js';
import type { Database } from '../storage/database.js';
import type { StoredResponse } from '../storage/idempotency.js';
import { findPet, insertPet, listPets } from '../storage/pets.js';
import { fingerprint, idempotent, readIdempotencyKey, storedResponse } from './idempotency.js';

/** `GET /pets`: keyset pages by id, optional status filter, `Link rel="next"` while more exist. */
export async function listPetsRoute({ url, store }: RouteRequest): Promise<Answer> {
  const query = parseQuery(url.searchParams, ListPetsQuerySchema);
  const limit = Number(query.limit);
  const afterId = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'pets', query.status ?? '');
  const page = await listPets(store.db, { limit, status: query.status, afterId });
  return pageResponse(url, page, { list: 'pets', limit, status: query.status }, writePet);
}

/**
 * `POST /pets`: 201 with the stored pet and its Location. With an `Idempotency-Key`, a retry
 * replays the first answer (see routes/idempotency.ts). Body errors (415, 413, malformed JSON)
 * come first; then one 400 names every bad field, the key included; only then is the key claimed.
 */
export async function createPetRoute(req: RouteRequest): Promise<Answer> {
  const { request, url, store } = req;
  const body = await readJsonObject(request, req.bindings);
  const idempotency = readIdempotencyKey(requestHeader(request, 'idempotency-key', req.bindings));
  const parsed = v.safeParse(NewPetSchema, body, { abortEarly: false });
  const details = [...idempotency.problems, ...(parsed.success ? [] : issuesToDetails(parsed.issues))];
  if (!parsed.success || details.length > 0) throw invalidRequest(details);
  const newPet = parsed.output;
  const created = (pet: PetRecord): StoredResponse => ({ status: 201, body: writePet(pet), location: `${url.origin}${store.basePath}/pets/${pet.id}` });
  if (idempotency.key === undefined) return storedResponse(created(await insertPet(store.db, newPet)));
  // Same NewPet after validation = same request: key order, spacing, unknown properties and an
  // omitted status (stored as "available") do not change the fingerprint.
  const canonical = `POST /pets\n{"name":${jsonString(newPet.name)},"categoryId":${newPet.categoryId},"status":"${newPet.status}"}`;
  return idempotent(req, idempotency.key, fingerprint(canonical), async (db: Kysely<Database>) => created(await insertPet(db, newPet)));
}

/** Headers of every answer of the deprecated `GET /pets/{petId}`, errors included. */
export function getPetHeaders({ url, store }: RouteRequest): Record<string, string> {
  return deprecationHeaders(store.deprecation, `${url.origin}${store.basePath}/pets`);
}

/** `GET /pets/{petId}` (deprecated): 410 Gone from the sunset instant on. */
export async function getPetRoute({ params, store }: RouteRequest): Promise<Answer> {
  if (isSunset(store.deprecation, store.now())) {
    throw new ApiError(410, ErrorCode.gone, 'GET /pets/{petId} has been removed; use GET /pets');
  }
  const id = parseInt64Text(params.petId!);
  if (id === undefined) throw invalidRequest([{ path: 'petId', message: 'must be a decimal int64 without leading zeros' }]);
  const pet = await findPet(store.db, id);
  if (!pet) throw new ApiError(404, ErrorCode.notFound, `pet ${id} does not exist`);
  return jsonResponse(200, writePet(pet));
}
