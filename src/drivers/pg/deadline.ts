import { type CancelTarget, sendCancelRequest } from './cancel.js';

/** Extra time a cancelled statement gets to report its cancellation before the client gives up on it. */
const CANCEL_GRACE_MS = 2_000;

/** The error of a statement that outlived its deadline and its cancellation grace. */
export class StatementTimeoutError extends Error {
  /** SQLSTATE query_canceled, as PostgreSQL reports a statement timeout: answered 503. */
  readonly code = '57014';
}

/**
 * Runs `query` on a client with a deadline that holds behind a transaction-mode pooler, where a
 * session `SET statement_timeout` lands on whichever backend serves it and a startup parameter is
 * refused: at `timeoutMs` the statement is cancelled with PostgreSQL's CancelRequest (the database
 * stops working on it and reports 57014); should no answer come within a grace period (the cancel
 * could not be delivered), the promise rejects and `onAbandoned` is called so the caller discards
 * the connection instead of lending it out with a statement still running.
 */
export function withDeadline<T>(query: Promise<T>, timeoutMs: number, target: CancelTarget, onAbandoned: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let grace: ReturnType<typeof setTimeout> | undefined;
    const deadline = setTimeout(() => {
      sendCancelRequest(target);
      grace = setTimeout(() => {
        onAbandoned();
        reject(new StatementTimeoutError(`petstore-router: statement still running ${timeoutMs + CANCEL_GRACE_MS} ms after it started`));
      }, CANCEL_GRACE_MS);
    }, timeoutMs);
    query.then(
      (value) => {
        clearTimeout(deadline);
        clearTimeout(grace);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        clearTimeout(grace);
        reject(error);
      },
    );
  });
}
