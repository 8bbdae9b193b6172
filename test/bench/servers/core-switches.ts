/**
 * Fast paths inside the core, switched off at build time for the fast-path table of
 * docs/performance.md: the bench builds our server (the CLI's `serve`) once more per name in
 * BENCH_FAST_PATHS_OFF listed here, with one source file edited as it is bundled so that the fast
 * path gives way to its plain form. The core keeps no switch of its own (no option, no flag read
 * per request); an edit that no longer applies fails the build instead of measuring nothing.
 */
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

interface Edit {
  /** The file, relative to the repository. */
  file: string;
  /** Text that must occur once in it... */
  from: string;
  /** ...and what replaces it. */
  to: string;
}

export const CORE_SWITCHES: Record<string, Edit> = {
  // Every URL parsed by `new URL()`: the adapter's targetUrl and the core's requestUrl.
  'plain-url': {
    file: 'src/http/request-url.ts',
    from: 'export function isPlainUrl(scheme: string, host: string, target: string): boolean {',
    to: 'export function isPlainUrl(scheme: string, host: string, target: string): boolean {\n  if (scheme !== "") return false;',
  },
  // Every text parameter (limit, ids, cursors) through its valibot schema.
  'text-parsers': {
    file: 'src/routes/input.ts',
    from: 'if (param.parse !== undefined) {',
    to: 'if (param.parse !== undefined && param.parse === null) {',
  },
};

/** The esbuild plugin that applies `name`'s edit while bundling. */
export function switchOff(name: string, root: string): Plugin {
  const edit = CORE_SWITCHES[name];
  if (edit === undefined) throw new Error(`unknown core fast path ${name}`);
  const path = `${root.replace(/\/$/, '')}/${edit.file}`;
  return {
    name: `petstore-no-${name}`,
    setup(build) {
      build.onLoad({ filter: new RegExp(`${edit.file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`) }, async (args) => {
        if (args.path !== path) return undefined;
        const text = await readFile(path, 'utf8');
        if (text.split(edit.from).length !== 2) throw new Error(`core switch ${name}: ${edit.file} no longer contains its text once`);
        return { contents: text.replace(edit.from, edit.to), loader: 'ts' };
      });
    },
  };
}
