// The public API of `petstore-router`. Drivers live in `petstore-router/pglite` and
// `petstore-router/pg`, so importing this entry never loads WASM or `pg`.
export { createPetStore } from './store.js';
export type { PetStore, PetStoreOptions } from './store.js';
export type { KeysOption } from './pipeline/auth.js';
export type { RateLimitOptions } from './pipeline/rate-limit.js';
export type { ApiReference } from './docs/types.js';
export { keyId } from './http/key-id.js';
export { requestIdFromHeader } from './pipeline/pipeline.js';
export type { CorsOptions } from './pipeline/cors.js';
export type { ErrorContext, OnResponse, ResponseEvent } from './pipeline/on-response.js';
export type { HealthOptions } from './routes/health.js';
export type { ConcurrencyOptions } from './pipeline/shed.js';
export type { OpenTelemetryApi } from './pipeline/tracing.js';
export { ApiError, ErrorCode } from './errors.js';
export type { ApiErrorOptions } from './errors.js';
export type { ErrorBody, ErrorDetail } from './errors.js';
export { migrate, MIGRATION_TABLE, MIGRATION_LOCK_TABLE, type MigrateOptions } from './storage/migrate.js';
export { addOrder } from './add-order.js';
export type { Database, PetTable, OrderTable } from './storage/database.js';
export type {
  PetStoreDatabase,
  DatabaseErrorKind,
  DatabaseFailure,
  StatementRunner,
  PreparedStatement,
  ReadSide,
  ReadRouting,
} from './drivers/contract.js';
// Wire types (what `await res.json()` gives: int64 as number) and store-side types (what the
// library's functions take and return: int64 as bigint). README, "Types", says which is which.
export type { Pet, NewPet, Order } from './wire.js';
export type { PetStatus, OrderStatus, StoredPet, StoredOrder, NewStoredOrder } from './model.js';
export { MAX_BODY_BYTES } from './http/body.js';
export { JSON_TYPE } from './http/answer.js';
export type { ResponseFactory } from './http/answer.js';
export { openApiDocument } from './openapi/document.js';
export type { OpenApiOptions } from './openapi/document.js';
export type { OpenApiDocument, OpenApiServer } from './openapi-types.js';
/** @internal The option checks of the adapters (petstore-router/node, /fastify, /msw): src/options/. */
export {
  DEFAULT_HEADERS_TIMEOUT_MS,
  NODE_HANDLER_OPTION_NAMES,
  SERVE_OPTION_NAMES,
  checkNodeHandlerOptions,
  checkServeOptions,
  nodeHandlerOptionsOf,
} from './options/node.js';
/** @internal */
export { checkPetStorePluginOptions } from './options/fastify.js';
/** @internal */
export { checkMswHandlersArguments } from './options/msw.js';
/** @internal */
export { checkStore } from './options/store-like.js';
/** @internal */
export { BUN_SERVE_OPTION_NAMES, DENO_SERVE_OPTION_NAMES, checkRuntimeServeArguments } from './options/runtime-serve.js';
export type { StoreLike } from './options/store-like.js';
