// The shape of an operation's definition: what defineRoute (define.ts) takes and gives.
import type * as v from 'valibot';
import type { RouteHandler, RouteRequest } from './context.js';
import type { ErrorDetail } from '../errors.js';
import type { Answer } from '../http/answer.js';
import type { errorKinds } from '../error-kinds.js';
import type { JsonObject } from '../openapi-types.js';
import type { ParsedOptional, ParsedPath, TextParams } from '../schemas/param.js';

/** An error answer, by its name in `components.responses` (`errorKinds` in src/error-kinds.ts). */
export type ErrorResponseName = keyof typeof errorKinds;

/** A success answer of an operation, as the document describes it. */
export interface SuccessResponse {
  description: string;
  /** The body: a `components.schemas` name, `[name]` for a plain array of it, or a JSON Schema. */
  body: string | readonly [string] | JsonObject;
  /** The body's media type. @default 'application/json' */
  mediaType?: string;
  /** Header name to its `components.headers` name, e.g. `{ Link: 'LinkNext' }`. */
  headers?: Readonly<Record<string, string>>;
}

/** What a request carries besides its path: each part validated before the handler runs. */
export interface RequestShape {
  /** Path parameters, named as in `path` (`/pets/:petId` needs `petId`). */
  params?: TextParams;
  query?: TextParams;
  /** Request headers, by their documented name (`Idempotency-Key`). */
  headers?: TextParams;
  /** A JSON object body (415, 413 and malformed JSON are answered before validation). */
  body?: {
    schema: v.GenericSchema;
    component: string;
  };
}

/** Everything about an operation but its handler: routing, validation and the document read it. */
export interface RouteDocumentation<R extends RequestShape = RequestShape> {
  method: 'GET' | 'POST';
  /** itty-router pattern, relative to the base path: `/pets/:petId`. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tags: readonly string[];
  /** `x-stability` in the document. */
  stability?: 'experimental' | 'beta';
  /**
   * Deprecated in favour of `successor`: every answer after authentication carries `Deprecation`,
   * `Sunset` and `Link: rel="successor-version"` (documented on every response but 401), and from
   * the store's sunset on the operation answers 410 before reading its input.
   */
  deprecation?: { successor: { method: 'GET' | 'POST'; path: string; note: string } };
  /** Served without a key (`security: []` in the document). The store passes it as a public route. */
  public?: boolean;
  request?: R;
  /** By status. Each status the operation can answer is listed; 401 is answered before routing. */
  responses: Readonly<Record<string, ErrorResponseName | SuccessResponse>>;
}

type BodyOf<R extends RequestShape> = R['body'] extends { schema: infer S extends v.GenericSchema } ? v.InferOutput<S> : undefined;

/** What the handler receives: the request and its parts, parsed and typed by the definition. */
export interface RouteInput<R extends RequestShape = RequestShape> extends Omit<RouteRequest, 'params'> {
  params: ParsedPath<R['params']>;
  query: ParsedOptional<R['query']>;
  headers: ParsedOptional<R['headers']>;
  body: BodyOf<R>;
}

/** One operation in one place: {@link defineRoute} takes it. */
export interface RouteSpec<R extends RequestShape> extends RouteDocumentation<R> {
  /** Rules across parameters, run once each one is valid on its own; their details join the 400. */
  refine?: (input: Pick<RouteInput<R>, 'params' | 'query' | 'headers'>) => readonly ErrorDetail[] | undefined;
  handler: (input: RouteInput<R>) => Promise<Answer>;
}

/** A defined operation, as the route table, the pipeline and the document hold it. */
export interface RouteDefinition extends RouteDocumentation {
  /** Validates the request against the definition, then runs the typed handler. */
  handler: RouteHandler;
  /** Headers added to every answer of this operation once authenticated, errors included. */
  headers?: (req: RouteRequest) => Record<string, string>;
}
