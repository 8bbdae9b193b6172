import { Router } from 'itty-router';
import type { RouteDefinition } from './table.js';

const NO_PARAMS: Record<string, string> = Object.freeze({});

/** itty's registration method for each of our methods: a method added to the table must be added here. */
const ITTY_METHOD = { GET: 'get', POST: 'post' } as const satisfies Record<RouteDefinition['method'], string>;

export type RouteMatch = { route: RouteDefinition; params: Record<string, string> } | { route?: undefined; allow: string } | undefined;

/**
 * Compiles the route table with itty-router's patterns and matches a method and path against it.
 *
 * We use itty's compiled routes rather than `router.fetch`: itty has no 405 and no HEAD, and its
 * fetch re-parses the URL and writes onto the request object. Here a path that matches with
 * another method gives the `Allow` list (HEAD wherever GET is), and HEAD is served by GET.
 */
export function createRouteMatcher(table: readonly RouteDefinition[], basePath: string) {
  const router = Router({ base: basePath });
  // Paths without parameters first, so `/pets/search` would win over `/pets/:petId` whatever the
  // table's order (the sort is stable: otherwise the table's order).
  const ordered = [...table].sort((a, b) => Number(a.path.includes(':')) - Number(b.path.includes(':')));
  for (const route of ordered) router[ITTY_METHOD[route.method]](route.path, () => route);
  const compiled = router.routes.map(([method, regex, handlers]) => ({
    method,
    regex,
    route: (handlers[0] as () => RouteDefinition)(),
  }));

  return function match(method: string, pathname: string): RouteMatch {
    const wanted = method === 'HEAD' ? 'GET' : method;
    let allow: Set<string> | undefined;
    for (const c of compiled) {
      const m = c.regex.exec(pathname);
      if (!m) continue;
      // The match's own groups object (fresh per exec), not a copy: the definition parses it.
      if (c.method === wanted) return { route: c.route, params: m.groups ?? NO_PARAMS };
      (allow ??= new Set()).add(c.method);
      if (c.method === 'GET') allow.add('HEAD');
    }
    return allow ? { allow: [...allow].sort().join(', ') } : undefined;
  };
}
