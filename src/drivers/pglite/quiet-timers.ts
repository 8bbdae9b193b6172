// Lets Node exit once a PGlite we keep open is idle (upstream: https://github.com/electric-sql/pglite/issues/925).
//
// Why a PGlite keeps Node alive: after a write, PostgreSQL arms its idle statistics-flush timeout
// (10 s) through setitimer(), which Emscripten implements as a ref'd setTimeout. When PostgreSQL
// later disables a timeout it does not cancel the OS timer (it lets it fire and do nothing), so the
// setTimeout stays until it fires. `pglite.close()` clears Emscripten's timers (the fix of #925), but
// the shared PGlite of `petstore-router/testing` is never closed, so its timer held every test run.
import type { PGlite } from '@electric-sql/pglite';

/**
 * @internal postgresql.conf lines for a PGlite started from a dumped data directory (snapshot.ts):
 * such a start replays WAL as after a crash, and PostgreSQL then reports the progress of that
 * startup every `log_startup_progress_interval` through a repeating timeout that, in PGlite, stays
 * armed for the life of the instance: a repeating 10 s timer that would keep Node alive forever.
 */
export const SNAPSHOT_START_CONF = ['log_startup_progress_interval = 0'];

/**
 * Run on an idle instance (outside any transaction): `pg_stat_force_next_flush()` makes the idle
 * loop after this text flush the pending statistics, so the flush timeout is disabled rather than
 * armed again; a statement timeout of 1 ms re-arms the one OS timer to fire 1 ms later instead of
 * 10 s (it cannot cancel a statement: PGlite runs the text synchronously, the timer fires only after
 * it). When it fires nothing is due and nothing re-arms it, so no timer of PGlite is left.
 */
const QUIET_TIMERS = 'set statement_timeout = 1; select pg_stat_force_next_flush(); reset statement_timeout';

/** @internal Leaves `pglite` with no pending timer once it is idle (see above). */
export async function quietTimers(pglite: PGlite): Promise<void> {
  await pglite.exec(QUIET_TIMERS);
}
