import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { SnapshotCommand } from './args.js';
import { CliError, EXIT_OK, describe } from './errors.js';

/**
 * `snapshot FILE`: writes the snapshot file of petstore-router/browser (browserSnapshot() of
 * petstore-router/pglite) under a temporary name, then renames it into place, so a dev server never
 * serves half a file.
 */
export async function runSnapshot(command: SnapshotCommand): Promise<number> {
  let bytes: Uint8Array;
  try {
    const { browserSnapshot } = await import('petstore-router/pglite');
    bytes = await browserSnapshot({ gzip: command.gzip });
  } catch (error) {
    const missing = /Cannot find (?:package|module) '@electric-sql\/pglite'/.test(describe(error));
    throw new CliError(
      missing ? 'snapshot needs PGlite: npm install @electric-sql/pglite' : `cannot make the snapshot: ${describe(error)}`,
    );
  }
  const temp = `${command.file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, bytes);
    renameSync(temp, command.file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new CliError(`cannot write ${command.file}: ${describe(error)}`);
  }
  process.stderr.write(`wrote ${command.file} (${(bytes.length / 1e6).toFixed(1)} MB): createBrowserStore({ snapshot }) loads it\n`);
  return EXIT_OK;
}
