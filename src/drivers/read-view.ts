import type { Kysely } from 'kysely';
import type { Database } from '../storage/database.js';
import type { ReadRouting } from '../storage/read-routing.js';

export type { ReadRouting, ReplicaState, ReplicaStatus } from '../storage/read-routing.js';

/**
 * The read side of a database a driver created with read replicas: a Kysely for reads only (each
 * read learns the primary's WAL position and runs on a replica that has replayed it, else on the
 * primary), and the replicas' state.
 */
export interface ReadView {
  /** Reads only: no transaction, no write. */
  readonly db: Kysely<Database>;
  routing(): ReadRouting;
}

const views = new WeakMap<Kysely<Database>, ReadView>();

/** Attaches the read side to `db`, the primary's Kysely the driver created. */
export function attachReadView(db: Kysely<Database>, view: ReadView): void {
  views.set(db, view);
}

/** The read side attached to exactly this Kysely, or undefined (reads run on `db` itself). */
export function readViewOf(db: Kysely<Database>): ReadView | undefined {
  return views.get(db);
}
