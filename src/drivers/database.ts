// The database object the driver entries return, and the contract of whatever createPetStore is
// given (contract.ts states the contract itself).
import { Kysely, type KyselyConfig } from 'kysely';
import { classifyDatabaseError } from './classify.js';
import type { DatabaseFailure, PetStoreDatabase, ReadSide, StatementRunner } from './contract.js';

/** What a driver adds to a Kysely to make it a {@link PetStoreDatabase}. */
export interface DriverParts<DB> {
  statements?: StatementRunner | undefined;
  reads?: ReadSide<DB> | undefined;
  maxWaitMs?: number | undefined;
  /** Ends what the driver opened beyond Kysely's own driver (run after Kysely's `destroy()`). */
  end?: () => Promise<void>;
}

/**
 * The database the driver entries return: a Kysely (query builder, `migrate(db)`, `db.destroy()`)
 * that is also the store's {@link PetStoreDatabase}. `destroy()` and `close()` are one. The entries
 * declare it as `Kysely<Database>`: Kysely's schema type is invariant, and a subtype of it breaks the
 * inference of `<DB>(db: Kysely<DB>)` in callers' code; {@link contractOf} finds the contract.
 */
export class DriverKysely<DB> extends Kysely<DB> implements PetStoreDatabase<DB> {
  readonly statements: StatementRunner | undefined;
  readonly reads: ReadSide<DB> | undefined;
  readonly maxWaitMs: number | undefined;
  readonly #end: (() => Promise<void>) | undefined;

  constructor(config: KyselyConfig, parts: DriverParts<DB> = {}) {
    super(config);
    this.statements = parts.statements;
    this.reads = parts.reads;
    this.maxWaitMs = parts.maxWaitMs;
    this.#end = parts.end;
  }

  get kysely(): Kysely<DB> {
    return this;
  }

  classify(error: unknown): DatabaseFailure | undefined {
    return classifyDatabaseError(error);
  }

  close(): Promise<void> {
    return this.destroy();
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    await this.#end?.();
  }
}

/**
 * The contract of what `createPetStore({ db })` was given: one of ours as it is; a contract object
 * of another driver as it is; a plain Kysely as the minimal form (Kysely runs every statement and
 * every read, the shared classifier; `close()` destroys it, though the store never calls it).
 */
export function contractOf<DB>(db: Kysely<DB> | PetStoreDatabase<DB>): PetStoreDatabase<DB> {
  if (db instanceof DriverKysely) return db as DriverKysely<DB>;
  if (!isKysely(db)) return db;
  return { kysely: db, statements: undefined, reads: undefined, classify: classifyDatabaseError, close: () => db.destroy() };
}

/** A Kysely, of the copy of Kysely loaded here or of another (told by its query builder's entry point). */
function isKysely<DB>(db: Kysely<DB> | PetStoreDatabase<DB>): db is Kysely<DB> {
  return db instanceof Kysely || typeof (db as Partial<Kysely<DB>>).selectFrom === 'function';
}
