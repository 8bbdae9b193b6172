import type { Kysely } from 'kysely';
import { storeFailure } from '../drivers/classify.js';
import type { DatabaseFailure, PetStoreDatabase, ReplicaStatus } from '../drivers/contract.js';
import type { NewStoredPet, OrderRecord, Page, PetRecord } from '../model.js';
import type { Database } from './database.js';
import { pingDatabase } from './health.js';
import {
  type ClaimInput,
  type ClaimResult,
  type StoredResponse,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from './idempotency.js';
import { listOrders } from './orders.js';
import { PetInserts } from './pet-inserts.js';
import { type ListPetsParams, findPet, insertPet, listPets } from './pets.js';
import { type WindowCount, countRequest } from './rate-limits.js';
import type { Executor } from './statement.js';

// What routes see of the database: they import nothing from drivers/.
export type { DatabaseFailure, ReplicaStatus };

export interface PetRepository {
  /** Stores a pet outside any transaction and resolves with its record once committed. */
  insert(pet: NewStoredPet): Promise<PetRecord>;
  find(id: bigint): Promise<PetRecord | undefined>;
  list(params: ListPetsParams): Promise<Page<PetRecord>>;
}

export interface OrderRepository {
  list(params: { limit: number; afterId?: bigint | undefined }): Promise<Page<OrderRecord>>;
}

/** One claim of an `Idempotency-Key` (idempotency.ts). */
export type ClaimIds = Parameters<typeof releaseIdempotencyKey>[1];

/** What work inside an idempotency record's transaction may do. */
export interface TransactionRepositories {
  readonly pets: Pick<PetRepository, 'insert'>;
}

export interface IdempotencyRepository {
  claim(input: ClaimInput): Promise<ClaimResult>;
  /**
   * Runs `work` and completes `claim` with its answer, in one transaction; undefined (and nothing
   * kept) when the claim was taken over meanwhile: another request owns the key now.
   */
  complete(claim: ClaimIds, work: (tx: TransactionRepositories) => Promise<StoredResponse>): Promise<StoredResponse | undefined>;
  release(claim: ClaimIds): Promise<void>;
}

export interface HealthRepository {
  /** Resolves once a query naming every table of ours was answered, on `own` (a database of health's own) or where reads run. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: only a select of our tables runs on it
  ping(own?: Kysely<any>): Promise<void>;
  /** The read replicas' state; empty without replicas. */
  replicas(): readonly ReplicaStatus[];
}

/** Everything routes and the pipeline ask of the database. */
export interface Repositories {
  readonly pets: PetRepository;
  readonly orders: OrderRepository;
  readonly idempotency: IdempotencyRepository;
  readonly rateLimits: { count(keyId: string, windowStart: number): Promise<WindowCount> };
  readonly health: HealthRepository;
  /** What an error of the database means (its contract's classifier). */
  readonly classify: (error: unknown) => DatabaseFailure | undefined;
}

/** Rolls back an idempotency record's transaction whose claim was taken over. */
class TakenOver extends Error {}

/**
 * The store's repositories on `database`, with its tables in `schema` (undefined: the connection's
 * `search_path`). The read rule, here and nowhere else: single reads (pets.find, pets.list,
 * orders.list, health.ping) run on the database's read side when it has one (replicas that have
 * replayed every write answered before the read arrived), else on the primary; writes,
 * transactions, idempotency records and rate-limit counts always run on the primary. The store's
 * own statements go by the driver's runner where it has one; creates are batched only through that
 * runner, and only with `batchCreates`.
 */
export function createRepositories(
  database: PetStoreDatabase<Database>,
  { schema, batchCreates }: { schema: string | undefined; batchCreates: boolean },
): Repositories {
  // Every statement is built by Kysely's query builder, so WithSchemaPlugin qualifies its tables;
  // the runner sends the SQL compiled on the scoped Kysely (statement.ts).
  const scoped = (kysely: Kysely<Database>) => (schema === undefined ? kysely : kysely.withSchema(schema));
  // The store's own refusals (a create never sent) mean the same whatever the database's classifier knows.
  const classify = (error: unknown) => database.classify(error) ?? storeFailure(error);
  const primary: Executor = { kysely: scoped(database.kysely), runner: database.statements };
  const readSide = database.reads;
  const reads: Executor = readSide === undefined ? primary : { kysely: scoped(readSide.db), runner: readSide.statements };
  // A create waits for a batch no longer than the driver lets any wait on the database last.
  const bounds = database.maxWaitMs === undefined ? {} : { maxWaitMs: database.maxWaitMs };
  const inserts = primary.runner !== undefined && batchCreates ? new PetInserts(primary, classify, bounds) : undefined;
  return {
    pets: {
      insert: inserts === undefined ? (pet) => insertPet(primary, pet) : inserts.insert,
      find: (id) => findPet(reads, id),
      list: (params) => listPets(reads, params),
    },
    orders: { list: (params) => listOrders(reads.kysely, params) },
    idempotency: {
      claim: (input) => claimIdempotencyKey(primary.kysely, input),
      complete: (claim, work) =>
        primary.kysely
          .transaction()
          .execute(async (trx) => {
            const answer = await work({ pets: { insert: (pet) => insertPet({ kysely: trx }, pet) } });
            if (!(await completeIdempotencyKey(trx, claim, answer))) throw new TakenOver();
            return answer;
          })
          .catch((error: unknown) => {
            if (error instanceof TakenOver) return undefined;
            throw error;
          }),
      release: (claim) => releaseIdempotencyKey(primary.kysely, claim),
    },
    rateLimits: { count: (keyId, windowStart) => countRequest(primary, keyId, windowStart) },
    health: {
      ping: (own) => pingDatabase(own ?? reads.kysely),
      replicas: () => readSide?.routing().replicas ?? [],
    },
    classify,
  };
}
