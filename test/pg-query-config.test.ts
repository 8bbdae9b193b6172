// The pg driver's shared query configs (src/drivers/pg/query-config.ts) against the plain path:
// the same rows, fields and prepared statements from PostgreSQL, and the shared config never
// altered by pg, also under concurrent queries with different values on one connection.
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { plainStatementConfig, sharedStatementConfig, type StatementConfig } from '../src/drivers/pg/query-config.js';

const url = process.env.DATABASE_URL;
if (!url && process.env.CI) throw new Error('DATABASE_URL must be set in CI');
const pgTest = url ? test : (name: string, _fn?: unknown) => test.skip(`${name} (DATABASE_URL unset)`);

const TEXT = `select $1::int8::text as "id", $2::text as "name", g::text as "n" from generate_series(1, $3::int) as g`;

type Make = (name: string | undefined, text: string) => StatementConfig;

/** pg's documented `query(config, values, callback)`, as the driver calls it; a one-connection pool queues them. */
function run(pool: pg.Pool, config: StatementConfig, values: unknown[]): Promise<pg.QueryArrayResult> {
  return new Promise((resolve, reject) => {
    (pool.query as (c: StatementConfig, v: unknown[], cb: (e: Error | undefined, r: pg.QueryArrayResult) => void) => void).call(
      pool,
      config,
      values,
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** What one path gives: results of concurrent named and unnamed queries, and the names prepared. */
async function observe(make: Make, name: string) {
  const client = new pg.Pool({ connectionString: url!, max: 1 });
  try {
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        run(client, make(i % 3 === 0 ? undefined : name, TEXT), [String(2n ** 62n + BigInt(i)), `pet ${i}`, (i % 4) + 1]),
      ),
    );
    const { rows } = await client.query<{ name: string; statement: string }>(
      'select name, statement from pg_prepared_statements order by name',
    );
    return {
      rows: results.map((r) => r.rows),
      fields: results.map((r) => r.fields.map((f) => [f.name, f.dataTypeID])),
      commands: results.map((r) => [r.command, r.rowCount]),
      prepared: rows,
    };
  } finally {
    await client.end();
  }
}

pgTest('a shared config gives what a new config per query gives: rows, fields, counts, one prepared statement', async () => {
  const plain = await observe(plainStatementConfig, 'petstore_query_config_test');
  const shared = await observe(sharedStatementConfig, 'petstore_query_config_test');
  assert.equal(shared, plain);
  assert.equal(plain.prepared, [{ name: 'petstore_query_config_test', statement: TEXT }]);
  assert.equal(plain.rows[5], [
    [String(2n ** 62n + 5n), 'pet 5', '1'],
    [String(2n ** 62n + 5n), 'pet 5', '2'],
  ]);
});

pgTest('pg never alters a shared config; one object per statement and name', async () => {
  const named = sharedStatementConfig('petstore_query_config_test', TEXT);
  const unnamed = sharedStatementConfig(undefined, TEXT);
  await observe(sharedStatementConfig, 'petstore_query_config_test');
  assert.equal(Object.getOwnPropertyNames(named), []);
  assert.equal(Object.getOwnPropertyNames(unnamed), []);
  assert.equal(
    { name: named.name, text: named.text, rowMode: named.rowMode },
    { name: 'petstore_query_config_test', text: TEXT, rowMode: 'array' },
  );
  assert.is(unnamed.name, undefined);
  assert.is(sharedStatementConfig('petstore_query_config_test', TEXT), named);
  assert.is.not(plainStatementConfig(undefined, TEXT), plainStatementConfig(undefined, TEXT));
});

pgTest('an error on a shared config reaches its own query only, and the next query works', async () => {
  const client = new pg.Pool({ connectionString: url!, max: 1 });
  try {
    const config = sharedStatementConfig('petstore_query_config_test', TEXT);
    const [bad, good] = await Promise.allSettled([run(client, config, ['not a number', 'x', 1]), run(client, config, ['7', 'y', 1])]);
    assert.is(bad.status, 'rejected');
    assert.is((bad as PromiseRejectedResult).reason.code, '22P02');
    assert.equal((good as PromiseFulfilledResult<pg.QueryArrayResult>).value.rows, [['7', 'y', '1']]);
  } finally {
    await client.end();
  }
});

test.run();
