import type { Kysely } from 'kysely';
import type { NewPet, Page, Pet, PetStatus } from '../model.js';
import type { Database, PetRow } from './database.js';
import { toBigInt } from './int8.js';
import { runPrepared } from './prepared.js';

// No AbortSignal reaches these queries: with Kysely's default abort strategy ('ignore query') an
// aborted query keeps running on the database and holds its connection anyway; the signal only
// made the promise reject sooner, for a client that is gone, at the cost of ~7% of the server's
// CPU (a listener and Promise.race per query). Statement shapes are compiled once (prepared.ts).

const COLUMNS = ['id', 'name', 'category_id', 'status'] as const;

/** Maps a row to the API shape; int8 normalised here for both drivers. */
function toPet(row: PetRow): Pet {
  return { id: toBigInt(row.id), name: row.name, categoryId: toBigInt(row.category_id), status: row.status };
}

/** Inserts a pet; one round trip (`insert ... returning`). */
export async function insertPet(db: Kysely<Database>, pet: NewPet): Promise<Pet> {
  const rows = await runPrepared(db, 'pets.insert', [pet.name, pet.categoryId, pet.status ?? 'available'], (d, name, categoryId, status) =>
    d.insertInto('petstore_pets').values({ name, category_id: categoryId, status }).returning(COLUMNS),
  );
  if (rows.length === 0) throw new Error('petstore-router: insert returned no row');
  return toPet(rows[0]!);
}

/** Finds one pet by id, or undefined. */
export async function findPet(db: Kysely<Database>, id: bigint): Promise<Pet | undefined> {
  const rows = await runPrepared(db, 'pets.find', [id], (d, slot) => d.selectFrom('petstore_pets').select(COLUMNS).where('id', '=', slot));
  return rows[0] && toPet(rows[0]);
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
export async function listPets(db: Kysely<Database>, params: ListPetsParams): Promise<Page<Pet>> {
  const { status, afterId, limit } = params;
  const shape = `pets.list${status === undefined ? '' : '.status'}${afterId === undefined ? '' : '.after'}`;
  const args = [limit + 1, status, afterId].filter((a) => a !== undefined);
  const rows = await runPrepared(db, shape, args, (d, ...slots: never[]) => {
    const [limitSlot, ...rest] = slots;
    let query = d.selectFrom('petstore_pets').select(COLUMNS);
    if (status !== undefined) query = query.where('status', '=', rest.shift()!);
    if (afterId !== undefined) query = query.where('id', '>', rest.shift()!);
    return query.orderBy('id').limit(limitSlot!);
  });
  const hasMore = rows.length > limit;
  return { items: (hasMore ? rows.slice(0, limit) : rows).map(toPet), hasMore };
}
