// The options of createBrowserStore (`petstore-router/browser`): createPetStore's without `db`, and
// where the PGlite in the page comes from. The PGlite class is the entry's to load: it tells
// whether a value is a PGlite of its own (`isPGlite`).
import { checkOptionNames, isObject, optionError } from './check.js';
import { STORE_OPTION_NAMES } from './store.js';

const WHERE = 'createBrowserStore';
const NAMES = [...STORE_OPTION_NAMES.filter((name) => name !== 'db'), 'dataDir', 'pglite', 'snapshot'];

/** Throws unless `options` are what createBrowserStore takes (createPetStore checks the rest). */
export function checkBrowserOptions(options: unknown, isPGlite: (value: unknown) => boolean): void {
  if (!isObject(options)) throw optionError(WHERE, 'options', "an object { keys, dataDir?, ... }, e.g. { keys: ['demo-key'] }", options);
  checkOptionNames(WHERE, options, NAMES);
  const { dataDir, pglite, snapshot } = options;
  if (dataDir !== undefined && (typeof dataDir !== 'string' || dataDir === '')) {
    throw optionError(WHERE, 'options.dataDir', "'idb://name' (kept in IndexedDB), or absent for a store in memory", dataDir);
  }
  const own = isPGlite(pglite);
  if (pglite !== undefined && !own && !isObject(pglite)) {
    throw optionError(WHERE, 'options.pglite', "a PGlite of your own or PGlite's options (e.g. { wasmModule })", pglite);
  }
  if (own && dataDir !== undefined) {
    throw optionError(
      WHERE,
      'options.dataDir',
      'absent with a PGlite of your own (options.pglite)',
      dataDir,
      'pass either dataDir or a PGlite of your own, not both',
    );
  }
  if (snapshot === undefined) return;
  const source =
    snapshot instanceof Blob ||
    snapshot instanceof Response ||
    snapshot instanceof URL ||
    (typeof snapshot === 'string' && snapshot !== '');
  if (!source) throw optionError(WHERE, 'options.snapshot', "the snapshot file's URL (a string or URL), its Response or a Blob", snapshot);
  if (own) {
    throw optionError(
      WHERE,
      'options.snapshot',
      'absent with a PGlite of your own (options.pglite)',
      snapshot,
      'a snapshot starts a PGlite made here; yours is used as it is',
    );
  }
  if (isObject(pglite) && pglite.loadDataDir !== undefined) {
    throw optionError(
      WHERE,
      'options.snapshot',
      "absent with PGlite's own loadDataDir (options.pglite.loadDataDir)",
      snapshot,
      'pass one of them, not both',
    );
  }
}
