import { authBehaviour } from './auth.js';
import { conditionalGetBehaviour } from './conditional-get.js';
import type { BehaviourRun } from './context.js';
import { createPetBehaviour } from './create-pet.js';
import { getPetBehaviour } from './get-pet.js';
import { listPetsBehaviour } from './list-pets.js';
import { ordersBehaviour } from './orders.js';
import { rateLimitBehaviour } from './rate-limits.js';
import { routingBehaviour } from './routing.js';

export type { BehaviourRun } from './context.js';

/**
 * The behavioural suite, written once as a function of how requests reach the store and which
 * database backs it. Run in-process on PGlite, on PostgreSQL, and through the Node bridge.
 */
export function runBehaviourSuite(run: BehaviourRun): void {
  authBehaviour(run);
  listPetsBehaviour(run);
  createPetBehaviour(run);
  getPetBehaviour(run);
  ordersBehaviour(run);
  routingBehaviour(run);
  conditionalGetBehaviour(run);
  rateLimitBehaviour(run);
}
