import type { FetchHandler } from 'petstore-router/node';

/** Where the standalone server's index points: URLs relative to `/`, so a proxy prefix is kept. */
interface IndexLinks {
  docs?: string;
  openapi: string;
  health: string;
}

/**
 * `GET /` (and HEAD) on the standalone server: a small index pointing to the API reference page,
 * the OpenAPI document and health, instead of the store's 404 (the store answers only under its
 * base path). JSON by default, HTML for a browser (an `Accept` naming `text/html`). The same links
 * go in a `Link` header (RFC 8631 `service-doc`, `service-desc`, `status`). Every other request
 * goes to `handler` unchanged.
 */
export function withIndex(handler: FetchHandler, basePath: string, docs: boolean): FetchHandler {
  const base = basePath.replace(/^\//, '');
  const links: IndexLinks = { ...(docs ? { docs: `${base}/docs` } : {}), openapi: `${base}/openapi.json`, health: `${base}/health` };
  const link = [
    ...(links.docs ? [`<${links.docs}>; rel="service-doc"`] : []),
    `<${links.openapi}>; rel="service-desc"`,
    `<${links.health}>; rel="status"`,
  ].join(', ');
  const json = JSON.stringify({ name: 'petstore-router', api: base, ...links });
  const html = indexHtml(links);
  return {
    fetch(request) {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || new URL(request.url).pathname !== '/') return handler.fetch(request);
      const wantsHtml = /\btext\/html\b/.test(request.headers.get('accept') ?? '');
      const headers = { 'content-type': wantsHtml ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8', link, vary: 'accept' };
      return new Response(request.method === 'HEAD' ? null : wantsHtml ? html : json, { status: 200, headers });
    },
  };
}

function indexHtml(links: IndexLinks): string {
  const item = (href: string, text: string) => `<li><a href="${href}">${text}</a></li>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>petstore-router</title><link rel="icon" href="data:,"></head>
<body>
<h1>petstore-router</h1>
<ul>
${links.docs ? `${item(links.docs, 'API reference')}\n` : ''}${item(links.openapi, 'OpenAPI document')}
${item(links.health, 'Health')}
</ul>
</body>
</html>
`;
}
