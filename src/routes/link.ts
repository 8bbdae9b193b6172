/**
 * The RFC 8288 `Link: <…>; rel="next"` header of a page that has a successor: the same URL with
 * `cursor` replaced and `limit` (and `status`, when filtering) repeated; other parameters dropped.
 */
export function nextLink(url: URL, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `<${url.origin}${url.pathname}?${query}>; rel="next"`;
}
