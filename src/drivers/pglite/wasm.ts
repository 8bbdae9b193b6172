// PGlite's WebAssembly module, compiled ahead: PGlite takes a precompiled module (its documented
// `pgliteWasmModule` option, for `node_modules/@electric-sql/pglite/dist/pglite.wasm`, see PGlite's
// "Bundler support"), so the compile, which V8 runs on background threads, starts before our own
// modules load and overlaps them, instead of starting when PGlite gets to it (docs/performance.md,
// "First store and first start"). The file is read synchronously, so the compile starts when asked
// for: an async read's callback waited behind the other modules' loading (~150 ms in the standalone server).
import { readFileSync } from 'node:fs';

let compiled: Promise<WebAssembly.Module | undefined> | undefined;

/**
 * @internal PGlite's `pglite.wasm`, compiled once per process; undefined where it cannot be read
 * (another layout, a runtime without `import.meta.resolve`): then PGlite loads it itself as usual.
 */
export function pgliteWasmModule(): Promise<WebAssembly.Module | undefined> {
  compiled ??= (async () => {
    try {
      const wasm = readFileSync(new URL('pglite.wasm', import.meta.resolve('@electric-sql/pglite')));
      return await WebAssembly.compile(wasm);
    } catch {
      return undefined;
    }
  })();
  return compiled;
}
