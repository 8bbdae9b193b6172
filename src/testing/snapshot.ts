// The snapshot the shared PGlite of the test stores starts from (schema-pool.ts): the migrated
// snapshot (src/snapshot/) made ready for test stores once per machine, so the first store of a
// process pays neither the build of its schema nor the loading of databases it never uses.
import { newPGlite } from '../drivers/pglite/database.js';
import type { SnapshotVariant } from '../snapshot/cache.js';
import { MIGRATION_LOCK_TABLE, MIGRATION_TABLE } from '../storage/migrate.js';

/** The schema of the first test store of a process: the migrated `public` of the snapshot, renamed. */
export const FIRST_SCHEMA = 'petstore_test_1';

/**
 * On the migrated snapshot: its `public` schema holds our tables as `migrate()` made them, so it
 * becomes the first store's schema (its migration bookkeeping dropped, as no test schema keeps
 * any, and an empty `public` put back); and the template databases go: a test store never creates
 * a database, and they were half of the snapshot, which every process loads (docs/testing.md).
 */
const PREPARE = [
  `alter schema public rename to ${FIRST_SCHEMA};
drop table ${FIRST_SCHEMA}.${MIGRATION_TABLE}, ${FIRST_SCHEMA}.${MIGRATION_LOCK_TABLE};
create schema public;
update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
  // Each alone: PostgreSQL drops a database only outside a transaction block.
  'drop database template0',
  'drop database template1',
  'checkpoint',
];

/** @internal The test stores' snapshot, cached beside the migrated one (src/snapshot/cache.ts). */
export const testSnapshot: SnapshotVariant = {
  name: 'testing',
  version: PREPARE.join(';\n'),
  async make(migrated) {
    const pglite = newPGlite({ loadDataDir: migrated });
    try {
      for (const statement of PREPARE) await pglite.exec(statement);
      return await pglite.dumpDataDir('none');
    } finally {
      await pglite.close();
    }
  },
};
