// Whether a data directory holds a database already (then it is opened as it is, never loaded
// from a snapshot). Apart from cache.ts so that opening one does not load the snapshot code.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** @internal True when `dataDir` holds a PostgreSQL data directory (its `PG_VERSION`). */
export function holdsDatabase(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}
