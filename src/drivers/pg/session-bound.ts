import pg from 'pg';

/**
 * `config` with the server's statement bound as a session setting: libpq's `options` startup
 * parameter (`-c statement_timeout=N`), after any options of the caller's.
 */
export function withSessionBound(config: pg.PoolConfig, timeoutMs: number): pg.PoolConfig {
  const ours = `-c statement_timeout=${Math.floor(timeoutMs)}`;
  return { ...config, options: config.options ? `${config.options} ${ours}` : ours };
}

/**
 * Whether a connection made with {@link withSessionBound} runs under that bound: one connection,
 * asked for the setting it got. A server of its own takes the startup parameter; a
 * transaction-mode pooler refuses it (PgBouncer: "unsupported startup parameter"), drops it
 * (`ignore_startup_parameters`) or, where it tracks the parameter per client, applies it to every
 * backend it lends. Only the first and the last answer the bound's value; anything else (the
 * refusal, another value, no connection at all) keeps the bound per statement (server-bound.ts).
 */
export async function takesSessionBound(config: pg.PoolConfig, timeoutMs: number): Promise<boolean> {
  const client = new pg.Client(withSessionBound(config, timeoutMs));
  // An idle connection's 'error' (the server went away mid-probe) must not crash the process.
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ setting: string }>(`select setting from pg_settings where name = 'statement_timeout'`);
    return rows[0]?.setting === String(Math.floor(timeoutMs));
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
