// The options of createPGliteDatabase, checked before PGlite starts (which takes seconds): a wrong
// value fails at once, synchronously, naming the option and what to pass.
import { checkOptionNames, isObject, optionError } from './check.js';

const WHERE = 'createPGliteDatabase';

/** Throws a TypeError unless `options` is what createPGliteDatabase takes. */
export function checkPGliteOptions(options: unknown): void {
  if (options === undefined) return;
  if (typeof options === 'string') {
    throw optionError(
      WHERE,
      'options',
      'an object { dataDir?, pglite?, migrate? }',
      options,
      'for a data directory pass `{ dataDir: path }`',
    );
  }
  if (!isObject(options)) {
    throw optionError(WHERE, 'options', 'an object { dataDir?, pglite?, migrate? }', options);
  }
  // `snapshot` is @internal (the snapshot cache's own tests), still a name this entry knows.
  checkOptionNames(WHERE, options, ['dataDir', 'pglite', 'migrate', 'snapshot']);
  const { dataDir, pglite, migrate } = options;
  if (dataDir !== undefined && (typeof dataDir !== 'string' || dataDir === '')) {
    throw optionError(WHERE, 'options.dataDir', 'a directory path (a non-empty string), or absent for a database in memory', dataDir);
  }
  if (pglite !== undefined && !isPGlite(pglite)) {
    throw optionError(WHERE, 'options.pglite', 'a PGlite instance (new PGlite() or await PGlite.create())', pglite);
  }
  if (pglite !== undefined && dataDir !== undefined) {
    throw optionError(
      WHERE,
      'options.dataDir',
      'absent with options.pglite',
      dataDir,
      'pass either options.pglite or options.dataDir, not both',
    );
  }
  if (migrate !== undefined && typeof migrate !== 'boolean') throw optionError(WHERE, 'options.migrate', 'true or false', migrate);
}

/** What the dialect uses of a PGlite (checked by shape: a caller may load another copy of PGlite). */
function isPGlite(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { query, transaction, close } = value as Record<string, unknown>;
  return typeof query === 'function' && typeof transaction === 'function' && typeof close === 'function';
}
