/**
 * `petstore-router/node`: serve the store (or any fetch handler) with `node:http`.
 *
 * The bridge reads request bodies on demand (capped at `maxBodyBytes` if given; the store caps its
 * own), hands the handler a lazy standard Request, aborts `request.signal` when the
 * client disconnects, answers every failure below the store with the Error body, and shuts down
 * gracefully. No runtime dependency.
 */
export { createNodeHandler } from './node/handler.js';
export type { FetchHandler, NodeHandlerOptions, NodeListener } from './node/handler.js';
export { serve } from './node/serve.js';
export type { ServeOptions, Served } from './node/serve.js';
export { nodeResponse } from './node/json-response.js';
