// What a connection of a multi-host URL is checked for, libpq's way (fe-connect.c), and what fits.
import type pg from 'pg';
import { UNABLE_TO_CONNECT, answeredByServer, classifyDatabaseError } from '../classify.js';
import type { SessionAttrs } from '../../options/hosts-url.js';
import type { StatementClient } from './statement-client.js';

/** What a server was found to be by the check of a connection to it. */
export interface Verdict {
  readonly standby: boolean;
  readonly readOnly: boolean;
  readonly at: number;
}

/**
 * The check libpq makes of a new connection (fe-connect.c): hot standby (`pg_is_in_recovery()`,
 * libpq's `in_hot_standby`) and read-only sessions (`transaction_read_only`, which a standby and
 * `default_transaction_read_only = on` both set). Rows as arrays.
 */
const CHECK = {
  text: "select pg_catalog.pg_is_in_recovery(), pg_catalog.current_setting('transaction_read_only') = 'on'",
  rowMode: 'array',
} as pg.QueryConfig;

/** Whether a server fits libpq's `target_session_attrs` (prefer-standby's second round asks `any`). */
export function fits(verdict: Pick<Verdict, 'standby' | 'readOnly'>, attrs: SessionAttrs): boolean {
  switch (attrs) {
    case 'read-write':
      return !verdict.readOnly;
    case 'read-only':
      return verdict.readOnly;
    case 'primary':
      return !verdict.standby;
    case 'standby':
    case 'prefer-standby':
      return verdict.standby;
    default:
      return true;
  }
}

/** No host of the list fits: a connection error (SQLSTATE 08001, as libpq's), so it is answered 503. */
export class NoFittingHostError extends Error {
  readonly code = UNABLE_TO_CONNECT;
  constructor(names: readonly string[], attrs: SessionAttrs, cause: unknown) {
    super(`no server of ${names.join(',')} is up and fits target_session_attrs=${attrs}`, { cause });
    this.name = 'NoFittingHostError';
  }
}

/** An error that may mean the server changed: it did not answer (drivers/classify.ts), or refused a write as no longer a primary. */
export function serverFailure(error: unknown): boolean {
  return !answeredByServer(error) || classifyDatabaseError(error)?.kind === 'not_primary';
}

/** The check's verdict on one connection. */
export function check(client: StatementClient): Promise<Verdict> {
  return client.send<pg.QueryArrayResult<[unknown, unknown]>>(CHECK).then(({ rows }) => {
    const [standby, readOnly] = rows[0] ?? [];
    return { standby: standby === true, readOnly: readOnly === true, at: performance.now() };
  });
}
