import type { DatabaseFailure } from '../drivers/contract.js';
import { NOT_MIGRATED_MESSAGE } from '../errors.js';
import type { OnError } from './on-response.js';

/** How often a cause that keeps happening is counted in a line of its own. */
const REPEAT_LINE_MS = 60_000;

/** What an operator must do about each kind of database failure (drivers/classify.ts); `closed` is not logged. */
const FIXES: Record<Exclude<DatabaseFailure['kind'], 'closed'>, (reason: string) => string> = {
  not_migrated: () => NOT_MIGRATED_MESSAGE,
  login_refused: (reason) => `PostgreSQL refused the login (${reason}): check the user and password of the database URL, and pg_hba.conf`,
  unavailable: (reason) => `the database cannot be reached (${reason}): check that it runs and that the URL's host and port are right`,
  outcome_unknown: (reason) => `the connection to the database was lost (${reason}): check the network and the server's log`,
  timeout: (reason) => `the database did not answer in time (${reason}): check its load and locks (pg_stat_activity)`,
  not_primary: (reason) => `the database refused a write as a standby (${reason}): point the URL at the primary`,
};

/**
 * The store's default `onError`: a database failure (`classify`) is one line per cause with its
 * fix, then a line with its count at most once a minute while it goes on (an unmigrated database
 * must not print a stack trace per request); anything else is logged whole, stack and request id;
 * a closed database not at all (the store is shut down, not failing).
 */
export function createDefaultOnError(
  classify: (error: unknown) => DatabaseFailure | undefined,
  write: (line: string) => void = (line) => console.error(line),
): OnError {
  const causes = new Map<string, { lastLineAt: number; since: number }>();
  return (error, request, context) => {
    const failure = classify(error);
    if (failure?.kind === 'closed') return;
    if (failure === undefined) {
      console.error(`petstore-router: ${request.method} ${new URL(request.url).pathname} failed (request ${context.requestId}):`, error);
      return;
    }
    const fix = FIXES[failure.kind](reasonOf(error));
    const key = `${failure.kind} ${fix}`;
    const now = performance.now();
    const seen = causes.get(key);
    if (seen === undefined) {
      causes.set(key, { lastLineAt: now, since: 0 });
      write(`petstore-router: ${fix}`);
      return;
    }
    seen.since++;
    if (now - seen.lastLineAt < REPEAT_LINE_MS) return;
    write(`petstore-router: ${seen.since} more requests failed since: ${fix}`);
    seen.since = 0;
    seen.lastLineAt = now;
  };
}

/** The innermost code (or else message) of `error`'s cause chain, without its stack: ECONNREFUSED, 28P01. */
function reasonOf(error: unknown): string {
  let reason = 'no reason given';
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') reason = code;
    else if (typeof message === 'string' && message !== '') reason = message;
  }
  return reason;
}
