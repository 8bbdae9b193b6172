// The served directory of the chromium tests of petstore-router/browser: a page bundled with esbuild
// as docs/browser.md shows, PGlite's wasm and data beside it, MSW's worker script, and a static server.
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { tempDir } from '../temp-dir.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.data': 'application/octet-stream',
};

/** A new directory holding `page` (a file of this folder, or an absolute path) bundled as page.js, and what it needs. */
export async function servedDir(page = 'page.ts'): Promise<string> {
  const dir = tempDir('petstore-browser-');
  await build({
    entryPoints: [isAbsolute(page) ? page : join(ROOT, 'test/helpers/browser-page', page)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outfile: join(dir, 'page.js'),
    // PGlite 0.5 imports node:module, and the package's Node-only paths node:fs and the like, on
    // paths the browser never takes.
    external: ['node:*'],
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'error',
  });
  // PGlite fetches these next to the bundle (new URL('./pglite.wasm', import.meta.url)).
  const pglite = join(ROOT, 'node_modules/@electric-sql/pglite/dist');
  for (const file of ['pglite.wasm', 'pglite.data', 'initdb.wasm']) cpSync(join(pglite, file), join(dir, file));
  execFileSync(process.execPath, [join(ROOT, 'node_modules/msw/cli/index.js'), 'init', dir, '--no-save'], { stdio: 'ignore' });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="/page.js"></script>',
  );
  return dir;
}

/**
 * Serves `dir` on 127.0.0.1; `origin` is where. `cacheable` (the default) sends `Cache-Control` as a
 * static server's files have it: chromium then keeps pglite.wasm and its compiled code across tabs
 * and reloads; without it every page load fetches and compiles the wasm again.
 */
export async function serveDir(dir: string, cacheable = true): Promise<{ server: Server; origin: string }> {
  const caching = cacheable ? { 'cache-control': 'max-age=3600' } : {};
  const server = createServer((req, res) => {
    const path = join(dir, new URL(req.url ?? '/', 'http://x').pathname.replace(/\/$/, '/index.html'));
    if (!path.startsWith(dir) || !existsSync(path)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', ...caching }).end(readFileSync(path));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
