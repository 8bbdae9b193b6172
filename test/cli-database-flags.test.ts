import { sql } from 'kysely';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCommand } from '../adapters/cli/args.js';
import { openDatabase } from '../adapters/cli/database.js';
import { postgresTest } from './helpers/postgres-test.js';

// serve's database flags reach the driver: the pool `serve --database URL` opens keeps PostgreSQL's
// statement bound as the session's setting, unless --no-session-statement-timeout says not to.

/** Where the statement timeout of a session of `serve argv...`'s pool comes from, and its value. */
async function statementTimeoutOf(argv: string[]): Promise<{ source: string; setting: string }> {
  const command = parseCommand(['serve', ...argv], {});
  if (command.kind !== 'serve') throw new Error(`parsed as ${command.kind}`);
  const db = await openDatabase(command, false);
  try {
    const { rows } = await sql<{
      source: string;
      setting: string;
    }>`select source, setting from pg_settings where name = 'statement_timeout'`.execute(db);
    return rows[0]!;
  } finally {
    await db.destroy();
  }
}

postgresTest(
  test,
  "--no-session-statement-timeout: serve's sessions keep the server's statement timeout (creates bound it with SET LOCAL)",
  async (url) => {
    assert.equal(
      await statementTimeoutOf(['--database', url]),
      { source: 'client', setting: '5000' },
      'by default, the session carries the bound',
    );
    const off = await statementTimeoutOf(['--database', url, '--no-session-statement-timeout']);
    assert.is.not(off.source, 'client', 'with the flag, no startup parameter');
  },
);

test('--no-session-statement-timeout needs PostgreSQL', () => {
  assert.throws(
    () => parseCommand(['serve', '--no-session-statement-timeout', '--data-dir', '/tmp/x'], {}),
    /--no-session-statement-timeout needs PostgreSQL/,
  );
});

test.run();
