import { type Kysely, sql } from 'kysely';
import type { NewPet, Page, PetRecord, PetStatus } from '../model.js';
import type { Database } from './database.js';
import { pageRows } from './page-rows.js';
import { runPrepared } from './prepared.js';

// No AbortSignal reaches these queries: with Kysely's default abort strategy ('ignore query') an
// aborted query keeps running on the database and holds its connection anyway; the signal only
// made the promise reject sooner, for a client that is gone, at the cost of ~7% of the server's
// CPU (a listener and Promise.race per query). Statement shapes are compiled once (prepared.ts).

/** The columns of every pet statement, already in the API's names and int64 as text. */
const COLUMNS = [
  sql<string>`"id"::text`.as('id'),
  'name',
  sql<string>`"category_id"::text`.as('categoryId'),
  'status',
] as const;

/** A row of COLUMNS as an array (the drivers' array row mode, prepared.ts), in COLUMNS' order. */
const fromArray = (row: readonly unknown[]): PetRecord => ({
  id: row[0] as string,
  name: row[1] as string,
  categoryId: row[2] as string,
  status: row[3] as PetStatus,
});

/** Inserts a pet; one round trip (`insert ... returning`). */
export async function insertPet(db: Kysely<Database>, pet: NewPet): Promise<PetRecord> {
  const rows = await runPrepared(db, 'pets.insert', [pet.name, pet.categoryId, pet.status ?? 'available'], (d, name, categoryId, status) =>
    d.insertInto('petstore_pets').values({ name, category_id: categoryId, status }).returning(COLUMNS),
    fromArray,
  );
  if (rows.length === 0) throw new Error('petstore-router: insert returned no row');
  return rows[0]!;
}

/** Finds one pet by id, or undefined. */
export async function findPet(db: Kysely<Database>, id: bigint): Promise<PetRecord | undefined> {
  const rows = await runPrepared(db, 'pets.find', [id], (d, slot) => d.selectFrom('petstore_pets').select(COLUMNS).where('id', '=', slot), fromArray);
  return rows[0];
}

export interface ListPetsParams {
  limit: number;
  status?: PetStatus;
  /** Keyset: only pets with an id greater than this. */
  afterId?: bigint;
}

/**
 * One page ordered by id. Reads `limit + 1` rows (or a few more, see pageRows) to learn whether
 * more follow; with `(status, id)` and the primary key both shapes are index range scans, so
 * latency does not grow with the table.
 */
export async function listPets(db: Kysely<Database>, params: ListPetsParams): Promise<Page<PetRecord>> {
  const { status, afterId, limit } = params;
  const rowsToRead = pageRows(limit);
  const shape = `pets.list${status === undefined ? '' : '.status'}${afterId === undefined ? '' : '.after'}.${rowsToRead}`;
  const args = [status, afterId].filter((a) => a !== undefined);
  const rows = await runPrepared(
    db,
    shape,
    args,
    (d, ...slots: never[]) => {
      let query = d.selectFrom('petstore_pets').select(COLUMNS);
      if (status !== undefined) query = query.where('status', '=', slots.shift()!);
      if (afterId !== undefined) query = query.where('id', '>', slots.shift()!);
      // Qualified: a bare `id` in ORDER BY is the output column, here text, which sorts as text.
      return query.orderBy('petstore_pets.id').limit(sql.lit(rowsToRead));
    },
    fromArray,
  );
  const hasMore = rows.length > limit;
  if (hasMore) rows.length = limit;
  return { items: rows, hasMore };
}
