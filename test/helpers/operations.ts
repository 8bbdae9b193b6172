import { openApiDocument } from '../../src/index.js';
import { routes } from '../../src/routes/table.js';

/**
 * "Every operation" and "every path" for the tests, read from the route table (never a list of
 * the tests' own): a new operation is covered by the auth, 405, HEAD, 503 and document tests as
 * soon as it is defined.
 */

/** One request per operation that reaches its handler with valid input. */
export interface SampleRequest {
  operationId: string;
  /** Served without a key (`public: true`). */
  public: boolean;
  method: string;
  /** Under the default base path `/v1`. */
  path: string;
  body?: string;
}

type Schema = Record<string, any>;

/** A minimal valid JSON value of a document schema: required properties only, first enum value. */
function sample(schema: Schema, components: Record<string, Schema>): unknown {
  if (schema.$ref) return sample(components[String(schema.$ref).split('/').pop()!]!, components);
  if (schema.enum) return schema.enum[0];
  if (schema.type === 'object') {
    return Object.fromEntries((schema.required ?? []).map((name: string) => [name, sample(schema.properties[name], components)]));
  }
  if (schema.type === 'integer') return 1;
  if (schema.type === 'boolean') return false;
  if (schema.type === 'array') return [];
  return 'sample';
}

/** `/pets/:petId` with every path parameter set to `value`. */
export const concretePath = (path: string, value = '1') => `/v1${path.replace(/:[A-Za-z0-9_]+/g, value)}`;

/** One valid request per operation of the table (path parameters `1`, a minimal valid body). */
export function sampleRequests(): SampleRequest[] {
  const components = openApiDocument().components.schemas as Record<string, Schema>;
  return routes.map((route) => ({
    operationId: route.operationId,
    public: route.public === true,
    method: route.method,
    path: concretePath(route.path),
    ...(route.request?.body ? { body: JSON.stringify(sample({ $ref: route.request.body.component }, components)) } : {}),
  }));
}

/** Every path of the table with the methods it answers, as `Allow` lists them (HEAD wherever GET is). */
export function pathsWithAllow(): { path: string; allow: string }[] {
  const byPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const methods = byPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    byPath.set(route.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({ path: concretePath(path), allow: [...methods].sort().join(', ') }));
}

/** Paths under `/v1` that no operation serves: below every route's path, and every parent that is not a route. */
export function unknownPaths(): string[] {
  const known = new Set(routes.map((r) => r.path));
  const parents = new Set<string>();
  for (const route of routes) {
    const segments = route.path.split('/');
    for (let i = 2; i < segments.length; i++) parents.add(segments.slice(0, i).join('/'));
  }
  return [
    '/v1',
    '/v1/',
    '/v1/nothing',
    '/v1//pets',
    ...routes.map((r) => `${concretePath(r.path)}/no-such/thing`),
    ...[...parents].filter((p) => !known.has(p) && !/:/.test(p)).map((p) => `/v1${p}`),
  ];
}
