// One process of the concurrent-migration test (schema-option.test.ts): migrates a schema of
// DATABASE_URL once everyone is ready, prints the names of the migrations IT applied, as JSON.
import { migrate } from '../../src/index.js';
import { createPostgresDatabase } from '../../src/pg.js';

const [url, schema, startAt] = process.argv.slice(2) as [string, string, string];
const db = await createPostgresDatabase({ connectionString: url, max: 2 }, { migrate: false });
try {
  await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now()))); // start together
  const results = await migrate(db, { schema });
  process.stdout.write(JSON.stringify(results.filter((r) => r.status === 'Success').map((r) => r.migrationName)));
} finally {
  await db.destroy();
}
