import type { Kysely } from 'kysely';
import type { NewPet, Page, Pet, PetStatus } from '../model.js';
import type { Database, PetRow } from './database.js';
import { toBigInt } from './int8.js';

/** Maps a row to the API shape; int8 normalised here for both drivers. */
function toPet(row: PetRow): Pet {
  return { id: toBigInt(row.id), name: row.name, categoryId: toBigInt(row.category_id), status: row.status };
}

/** Inserts a pet; one round trip (`insert ... returning`). */
export async function insertPet(db: Kysely<Database>, pet: NewPet, signal?: AbortSignal): Promise<Pet> {
  const row = await db
    .insertInto('petstore_pets')
    .values({ name: pet.name, category_id: pet.categoryId, status: pet.status ?? 'available' })
    .returning(['id', 'name', 'category_id', 'status'])
    .executeTakeFirstOrThrow({ signal });
  return toPet(row);
}

/** Finds one pet by id, or undefined. */
export async function findPet(db: Kysely<Database>, id: bigint, signal?: AbortSignal): Promise<Pet | undefined> {
  const row = await db
    .selectFrom('petstore_pets')
    .select(['id', 'name', 'category_id', 'status'])
    .where('id', '=', id)
    .executeTakeFirst({ signal });
  return row && toPet(row);
}

export interface ListPetsParams {
  limit: number;
  status?: PetStatus;
  /** Keyset: only pets with an id greater than this. */
  afterId?: bigint;
}

/**
 * One page ordered by id. Reads `limit + 1` rows to learn whether more follow; with `(status, id)`
 * and the primary key both shapes are index range scans, so latency does not grow with the table.
 */
export async function listPets(db: Kysely<Database>, params: ListPetsParams, signal?: AbortSignal): Promise<Page<Pet>> {
  let query = db.selectFrom('petstore_pets').select(['id', 'name', 'category_id', 'status']);
  if (params.status !== undefined) query = query.where('status', '=', params.status);
  if (params.afterId !== undefined) query = query.where('id', '>', params.afterId);
  const rows = await query.orderBy('id').limit(params.limit + 1).execute({ signal });
  const hasMore = rows.length > params.limit;
  return { items: (hasMore ? rows.slice(0, params.limit) : rows).map(toPet), hasMore };
}
