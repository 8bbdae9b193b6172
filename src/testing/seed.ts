import * as v from 'valibot';
import { ApiError, type ErrorDetail, ErrorCode } from '../errors.js';
import { issuesToDetails } from '../schemas/issues.js';
import { SeedDataSchema } from '../schemas/seed.js';
import type { AnyKysely } from '../storage/database.js';
import { type SeedData, type Seeded, seed as insertSeed } from '../storage/seed.js';

/**
 * Inserts pets and orders straight into a store's tables (no HTTP, no API key): one statement
 * per table, in one transaction. The data is checked first by the API's own rules (a name as
 * `POST /pets` takes it, a status among the allowed ones, orders as `addOrder` takes them): data
 * the API would refuse throws an `ApiError` 400 whose `details` name every offending field
 * (`pets.0.name`) and whose message lists them, and nothing is inserted. An explicit `id` moves
 * that table's id sequence past the largest id in it, so later `POST /pets` never collide.
 * `schema` is the store's schema when `db` itself is not already bound to it (a test store's `db`
 * is; use `testStore.seed(...)`).
 *
 * @example
 * ```ts
 * import { seed } from 'petstore-router/testing'
 * const { pets } = await seed(db, { pets: [{ name: 'Rex', categoryId: 1 }, { id: 2n ** 60n, name: 'Big', categoryId: 2 }] })
 * await seed(db, { orders: [{ petId: pets[0]!.id, quantity: 2 }] })
 * ```
 */
export async function seed(db: AnyKysely, data: SeedData, options: { schema?: string } = {}): Promise<Seeded> {
  // The API's own rules (names, statuses, quantities), every offending field named at once.
  const result = v.safeParse(SeedDataSchema, data, { abortEarly: false });
  if (!result.success) throw invalidSeed(issuesToDetails(result.issues, 'data'));
  return insertSeed(db, result.output, options);
}

/** The 400 of data the API would refuse: the details in the message too, for a test's failure output. */
function invalidSeed(details: ErrorDetail[]): ApiError {
  const list = details.map((d) => `${d.path} ${d.message}`).join('; ');
  return new ApiError({ status: 400, code: ErrorCode.invalidRequest, message: `petstore-router: seed: ${list}`, details });
}
