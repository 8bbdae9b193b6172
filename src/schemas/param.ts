import type { JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

/**
 * One parameter a client sends as text: a path segment, a query value or a header. The valibot
 * `schema` is the rule (its messages become the 400's `details`); the document describes the
 * parameter from it unless `document` says otherwise (an int64 path segment is an integer to a
 * client, not a string).
 */
export interface TextParam<T = unknown> {
  readonly schema: v.GenericSchema<string, T>;
  /** The parameter's `description` in the OpenAPI document. */
  readonly description: string;
  /** The parameter's JSON Schema in the document, when the conversion of `schema` is not it. */
  readonly document?: JsonSchema;
  /** The text used when a query parameter is absent (validated like a sent value). */
  readonly default?: string;
}

/** Declares a text parameter, keeping its exact type (schema output, whether it has a default). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function textParam<const P extends TextParam<any>>(param: P & TextParam<v.InferOutput<P['schema']>>): P {
  return param;
}

/** Named text parameters of one location (`params`, `query` or `headers`). */
export type TextParams = Readonly<Record<string, TextParam>>;

type Output<P> = P extends { schema: infer S extends v.GenericSchema } ? v.InferOutput<S> : never;

/** Path parameters as the handler receives them: every one present, parsed. */
export type ParsedPath<P extends TextParams | undefined> = P extends TextParams
  ? { readonly [K in keyof P]: Output<P[K]> }
  : Record<string, never>;

/** Query parameters and headers as the handler receives them: absent unless sent or defaulted. */
export type ParsedOptional<P extends TextParams | undefined> = P extends TextParams
  ? { readonly [K in keyof P]: P[K] extends { default: string } ? Output<P[K]> : Output<P[K]> | undefined }
  : Record<string, never>;
