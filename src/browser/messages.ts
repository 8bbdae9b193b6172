// What the tabs sharing one browser store say to each other on their BroadcastChannel: a handle
// sends a database operation to the leader of the moment (named by its epoch), the leader says when
// it started it and what came of it. Everything here is structured-cloneable.

/** One database operation a handle asks of the leader (`tx`: inside the transaction it began). */
export type Operation =
  { kind: 'query'; sql: string; params: unknown[]; tx?: string } | { kind: 'begin' } | { kind: 'end'; tx: string; commit: boolean };

/** A PostgreSQL error as it crosses tabs: its message and its fields (`code`, `detail`, …). */
export interface ErrorFields {
  message: string;
  [field: string]: string | number | undefined;
}

export type Message =
  /** A new handle asks who leads; the leader answers `leader`. */
  | { type: 'hello' }
  /** The leader of `epoch` is ready (sent when it took over, and to answer `hello`). */
  | { type: 'leader'; epoch: string }
  | { type: 'op'; epoch: string; from: string; id: number; op: Operation }
  /** The leader started operation `id` of handle `to`: from here, its outcome is unknown if the leader goes. */
  | { type: 'started'; to: string; id: number }
  | { type: 'done'; to: string; id: number; result?: unknown; error?: ErrorFields };

/** The fields of `error` that cross tabs (a PGlite error's SQLSTATE `code` among them). */
export function errorFields(error: unknown): ErrorFields {
  const fields: ErrorFields = { message: error instanceof Error ? error.message : String(error) };
  if (error && typeof error === 'object') {
    for (const [key, value] of Object.entries(error)) {
      if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
    }
  }
  return fields;
}

/** The Error a handle throws for an error that came from the leader: same message, same fields. */
export function errorFrom(fields: ErrorFields): Error {
  const { message, ...rest } = fields;
  return Object.assign(new Error(message), rest);
}

/**
 * The leader went while it ran a statement of this handle, so whether it was written is unknown:
 * in the driver's words for a connection lost after the statement was sent ("Connection
 * terminated", drivers/classify.ts: outcome unknown), which the store answers with a 503. A client
 * that must not repeat a create sends it with an `Idempotency-Key`.
 */
export function leaderLost(): Error {
  return new Error(
    'Connection terminated: the tab that held the browser store closed while it ran this statement; whether it was written is unknown',
  );
}
