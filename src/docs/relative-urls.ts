import { plainResponse } from '../http/answer.js';

/**
 * The URLs the page names, relative to the page itself (`{prefix}{basePath}/docs`): a host that
 * mounts the store under a prefix serves the page, its files and its document under that prefix
 * too, and the page never needs to know it. The page's last segment is `docs`, so its files are
 * `docs/<name>` and a sibling of the page (`openapi.json`) is the document.
 */
export function pageUrls(pagePath: string, documentPath: string): { document: string; assets: string } {
  return { document: documentPath.slice(documentPath.lastIndexOf('/') + 1), assets: pagePath.slice(pagePath.lastIndexOf('/') + 1) };
}

/**
 * For the page requested with trailing slashes (`/v1/docs/`), a redirect to the page itself: its
 * relative URLs resolve against the last slash. The Location is relative too, so the prefix the
 * client used is kept (`../docs` from `/api/v1/docs/` is `/api/v1/docs`). Undefined otherwise.
 */
export function trailingSlashRedirect(pathname: string, pagePath: string): Response | undefined {
  const slashes = pathname.length - pathname.replace(/\/+$/, '').length;
  if (slashes === 0) return undefined;
  const location = `${'../'.repeat(slashes)}${pagePath.slice(pagePath.lastIndexOf('/') + 1)}`;
  return plainResponse(308, null, { location, 'cache-control': 'no-cache' });
}
