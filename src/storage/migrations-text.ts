// Our migrations as one SQL text for one schema: the test stores (testing/schema-pool.ts) build a
// new schema with a single `exec` of it instead of one round trip per statement.
import { type CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { migrations } from './migrations/index.js';

/**
 * The statements of every migration's `up`, in order, qualified with `schema`, preceded by its
 * `create schema`, joined into one text. Compiled by Kysely's own PostgreSQL compiler on a
 * Kysely whose driver runs nothing (Kysely's documented `DummyDriver`); the statements are taken
 * from its query log. So the text is exactly what running the migrations would send, provided
 * each migration only sends DDL: a statement with parameters cannot be part of a plain text and is
 * refused here, and a migration that read rows would read none. `test/test-stores.test.ts` checks
 * that a schema built from this text has the catalog of `migrate(db, { schema })`.
 *
 * Run the text with a simple-protocol multi-statement call (PGlite's `exec`): PostgreSQL runs such
 * a text as one implicit transaction, so a failure leaves nothing behind. It contains no
 * `begin`/`commit` of its own on purpose: an error inside an explicit block would leave the session
 * in an aborted transaction.
 */
export async function migrationsText(schema: string): Promise<string> {
  const statements: CompiledQuery[] = [];
  const recorder = new Kysely<unknown>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      if (event.level === 'query') statements.push(event.query);
    },
  });
  await recorder.schema.createSchema(schema).execute();
  const scoped = recorder.withSchema(schema);
  for (const name of Object.keys(migrations).sort()) await migrations[name]!.up(scoped);
  for (const statement of statements) {
    if (statement.parameters.length > 0) {
      throw new Error(`petstore-router: a migration sends a statement with parameters, which cannot run as one text: ${statement.sql}`);
    }
  }
  return statements.map((s) => `${s.sql};`).join('\n');
}
