// Kept so imports of `src/pglite.js` (tests on other branches) keep resolving; the driver lives in
// src/drivers/pglite/ and the package entry `petstore-router/pglite` is built from there.
export * from './drivers/pglite/index.js';
