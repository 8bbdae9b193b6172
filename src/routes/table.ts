import type { RouteDefinition } from './define.js';
import * as orders from './orders.js';
import * as pets from './pets.js';

export type { RouteDefinition } from './define.js';

const isRoute = (value: unknown): value is RouteDefinition =>
  typeof value === 'object' && value !== null && 'operationId' in value && 'handler' in value;

/**
 * Every operation that needs a key: each `defineRoute` exported by a route module (a resource's
 * file of definitions), in path order, then method. Routing, 405 + Allow, HEAD, validation and the
 * OpenAPI document read this list, and so do the tests that need "every operation": a new
 * operation of an existing resource is one exported definition; a new resource file is one import
 * here.
 */
export const routes: readonly RouteDefinition[] = [...Object.values(pets), ...Object.values(orders)]
  .filter(isRoute)
  .sort((a, b) => (a.path === b.path ? a.method.localeCompare(b.method) : a.path < b.path ? -1 : 1));
