// Kept so imports of `src/pg.js` (tests on other branches) keep resolving; the driver lives in
// src/drivers/pg/ and the package entry `petstore-router/pg` is built from there.
export * from './drivers/pg/index.js';
