import { sql } from 'kysely';
import { DEFAULT_PET_STATUS, type NewStoredPet, type Page, type PetRecord, type PetStatus } from '../model.js';
import { PAGE_ROWS, pageRows } from './page-rows.js';
import { defineStatement, type Statement, type Executor } from './statement.js';

// No AbortSignal reaches these queries: with Kysely's default abort strategy ('ignore query') an
// aborted query keeps running on the database and holds its connection anyway; the signal would
// only make the promise reject sooner, for a client that is gone, at a cost on every query.
// Each statement is a module-level identity compiled once per Kysely (statement.ts).

/** The columns of every pet statement, already in the API's names and int64 as text. */
const COLUMNS = [sql<string>`"id"::text`.as('id'), 'name', sql<string>`"category_id"::text`.as('categoryId'), 'status'] as const;

/** A row of COLUMNS as an array (our drivers' array rows, statement.ts), in COLUMNS' order. */
const fromArray = (row: readonly unknown[]): PetRecord => ({
  id: row[0] as string,
  name: row[1] as string,
  categoryId: row[2] as string,
  status: row[3] as PetStatus,
});

const insertPetStatement = defineStatement<[name: string, categoryId: bigint, status: PetStatus], PetRecord>(
  'insert a pet',
  3,
  (d, name, categoryId, status) => d.insertInto('petstore_pets').values({ name, category_id: categoryId, status }).returning(COLUMNS),
  fromArray,
  { write: true },
);

/**
 * Several pets in one statement (pet-inserts.ts), from one JSON text parameter: an array of
 * `[name, categoryId as decimal text, status]`, one per pet. Identity values are drawn as rows are
 * inserted, in the order the `select` gives them (`order by n`, the array's order), so the rows
 * read back by id come in the array's order: SQLAlchemy's "insertmanyvalues" keeps the same rule.
 */
const insertPetsStatement = defineStatement<[pets: string], PetRecord>(
  'insert pets',
  1,
  (d, pets) =>
    d
      .with('inserted', (w) =>
        w
          .insertInto('petstore_pets')
          .columns(['name', 'category_id', 'status'])
          .expression(
            sql`select p->>0, (p->>1)::bigint, p->>2 from json_array_elements(${pets}::json) with ordinality as input(p, n) order by n`,
          )
          .returning(['id', 'name', 'category_id', 'status']),
      )
      .selectFrom('inserted')
      .select(COLUMNS)
      // Qualified: the output column `id` is text, which sorts as text.
      .orderBy('inserted.id'),
  fromArray,
  { write: true },
);

const findPetStatement = defineStatement<[id: bigint], PetRecord>(
  'find a pet by id',
  1,
  (d, id) => d.selectFrom('petstore_pets').select(COLUMNS).where('id', '=', id),
  fromArray,
);

/** One page statement per row count (page-rows.ts): the count is a constant in the SQL text. */
function pageStatements<A extends readonly unknown[]>(
  description: string,
  where: { status: boolean; after: boolean },
): (rows: number) => Statement<A, PetRecord> {
  const byRows = new Map<number, Statement<A, PetRecord>>();
  const define = (rows: number) =>
    defineStatement<A, PetRecord>(
      `${description}, ${rows} rows`,
      (where.status ? 1 : 0) + (where.after ? 1 : 0),
      (d, ...slots: never[]) => {
        let query = d.selectFrom('petstore_pets').select(COLUMNS);
        if (where.status) query = query.where('status', '=', slots.shift()!);
        if (where.after) query = query.where('id', '>', slots.shift()!);
        // Qualified: a bare `id` in ORDER BY is the output column, here text, which sorts as text.
        return query.orderBy('petstore_pets.id').limit(sql.lit(rows));
      },
      fromArray,
    );
  for (const rows of PAGE_ROWS) byRows.set(rows, define(rows));
  return (rows) => {
    const statement = byRows.get(rows);
    // pageRows() only answers PAGE_ROWS: a statement defined here per call would be compiled per call.
    if (statement === undefined) throw new Error(`petstore-router: no page statement reads ${rows} rows`);
    return statement;
  };
}

const listAll = pageStatements<[]>('list pets', { status: false, after: false });
const listAfter = pageStatements<[afterId: bigint]>('list pets after an id', { status: false, after: true });
const listByStatus = pageStatements<[status: PetStatus]>('list pets by status', { status: true, after: false });
const listByStatusAfter = pageStatements<[status: PetStatus, afterId: bigint]>('list pets by status after an id', {
  status: true,
  after: true,
});

/** Inserts a pet; one round trip (`insert ... returning`). */
export function insertPet(on: Executor, pet: NewStoredPet): Promise<PetRecord> {
  return insertPetStatement.one(on, pet.name, pet.categoryId, pet.status ?? DEFAULT_PET_STATUS);
}

/**
 * Inserts `pets` in one statement and answers their records in the same order; all or none are
 * stored (one statement). For the store's own runner (pet-inserts.ts), outside transactions.
 */
export function insertPets(on: Executor, pets: readonly NewStoredPet[]): Promise<PetRecord[]> {
  const rows = pets.map((pet) => [pet.name, String(pet.categoryId), pet.status ?? DEFAULT_PET_STATUS]);
  return insertPetsStatement.run(on, JSON.stringify(rows));
}

/** Finds one pet by id, or undefined. */
export function findPet(on: Executor, id: bigint): Promise<PetRecord | undefined> {
  return findPetStatement.first(on, id);
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
export async function listPets(on: Executor, params: ListPetsParams): Promise<Page<PetRecord>> {
  const { status, afterId, limit } = params;
  const rowsToRead = pageRows(limit);
  const rows =
    status === undefined
      ? afterId === undefined
        ? await listAll(rowsToRead).run(on)
        : await listAfter(rowsToRead).run(on, afterId)
      : afterId === undefined
        ? await listByStatus(rowsToRead).run(on, status)
        : await listByStatusAfter(rowsToRead).run(on, status, afterId);
  const hasMore = rows.length > limit;
  if (hasMore) rows.length = limit;
  return { items: rows, hasMore };
}
