import type { RouteHandler, RouteRequest } from '../context.js';
import { listOrdersRoute } from './orders.js';
import { createPetRoute, getPetHeaders, getPetRoute, listPetsRoute } from './pets.js';

/** One operation of the API. The table drives routing, 405 + Allow, HEAD and the OpenAPI document. */
export interface RouteDefinition {
  method: 'GET' | 'POST';
  /** itty-router pattern, relative to the base path. */
  path: string;
  operationId: string;
  summary: string;
  deprecated?: boolean;
  stability?: 'experimental' | 'beta';
  handler: RouteHandler;
  /** Headers added to every answer of this operation once authenticated, errors included. */
  headers?: (req: RouteRequest) => Record<string, string>;
}

export const routes: readonly RouteDefinition[] = [
  { method: 'GET', path: '/pets', operationId: 'listPets', summary: 'List all animals', handler: listPetsRoute },
  { method: 'POST', path: '/pets', operationId: 'createPet', summary: 'Add an animal', handler: createPetRoute },
  {
    method: 'GET',
    path: '/pets/:petId',
    operationId: 'getPet',
    summary: 'Get an animal (deprecated)',
    deprecated: true,
    handler: getPetRoute,
    headers: getPetHeaders,
  },
  {
    method: 'GET',
    path: '/store/orders',
    operationId: 'listOrders',
    summary: 'List orders',
    stability: 'experimental',
    handler: listOrdersRoute,
  },
];
