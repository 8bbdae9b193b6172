import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiReference } from 'petstore-router';
import { requireOptionalPeer } from './optional-peer.js';

/** Options of {@link apiReference}. */
export interface ApiReferenceOptions {
  /**
   * The page's title.
   * @default 'Pet store API reference'
   */
  title?: string;
}

/**
 * The files of swagger-ui-dist (an optional peer dependency) the page loads, with their media types.
 * Fonts, images and icons come inside the bundle and the style sheet, and the bundle's one
 * external call (the spec validator badge) is turned off in {@link INIT}, so the page requests
 * nothing from any other origin.
 */
const RENDERER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

/**
 * Starts Swagger UI on the document named by the page. A file, not an inline script, so the page
 * works under a Content-Security-Policy without 'unsafe-inline'. "Authorize" takes the API key
 * (the document's `bearerAuth` scheme), "Try it out" sends requests to the document's server,
 * which by default is where the document was served from.
 */
const INIT = `const root = document.getElementById('api-reference');
window.ui = SwaggerUIBundle({
  // Absolute, resolved against the page: the document's relative server resolves against it.
  url: new URL(root.dataset.document, document.baseURI).href,
  domNode: root,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
  deepLinking: false,
  displayOperationId: true,
  tryItOutEnabled: false,
});
`;

/**
 * The API reference page of the pet store, rendered by Swagger UI from files served by the store
 * itself (no CDN, works offline). Pass it to `createPetStore`; the page is then at
 * `{basePath}/docs`, without a key, and names its files and document by URLs relative to itself,
 * so it works under any prefix the store is mounted at. Node.js (and runtimes with `node:fs`): the renderer's files
 * are read from the installed `swagger-ui-dist` package on first request, then kept in memory.
 * `swagger-ui-dist` is an optional peer dependency (`npm install swagger-ui-dist`): without it,
 * `apiReference()` throws an Error that says so.
 *
 * @example
 * ```ts
 * import { createPetStore } from 'petstore-router'
 * import { apiReference } from 'petstore-router/docs'
 *
 * const store = createPetStore({ db, keys, docs: apiReference() })
 * // open http://localhost:8080/v1/docs, "Authorize" with a key, then "Try it out" on listPets
 * ```
 */
export function apiReference(options: ApiReferenceOptions = {}): ApiReference {
  const title = escapeHtml(options.title ?? 'Pet store API reference');
  const loaded = new Map<string, Promise<Uint8Array>>();
  // At creation, so a missing renderer fails where the page is configured, not at its first request.
  const dir = requireOptionalPeer('swagger-ui-dist');
  return {
    page: ({ document, assets }) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(assets)}/swagger-ui.css">
</head>
<body>
<div id="api-reference" data-document="${escapeHtml(document)}"></div>
<script src="${escapeHtml(assets)}/swagger-ui-bundle.js"></script>
<script src="${escapeHtml(assets)}/init.js"></script>
</body>
</html>
`,
    async asset(name) {
      if (name === 'init.js') return { body: INIT, type: 'text/javascript; charset=utf-8' };
      const type = Object.hasOwn(RENDERER_FILES, name) ? RENDERER_FILES[name] : undefined;
      if (type === undefined) return undefined;
      let body = loaded.get(name);
      if (body === undefined) {
        body = readFile(join(dir, name)).then((buffer) => new Uint8Array(buffer));
        // A failed read is not kept: the next request tries again.
        body.catch(() => loaded.delete(name));
        loaded.set(name, body);
      }
      return { body: await body, type };
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
