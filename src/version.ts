// This package's version, for code that cannot read package.json (a browser page): the snapshot
// file of `petstore-router/browser` names it. `npm version` rewrites it (scripts/sync-version.mjs,
// the `version` script) and test/snapshot-file.test.ts checks it against package.json.
export const PACKAGE_VERSION = '0.1.0';
