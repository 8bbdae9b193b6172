import * as v from 'valibot';
import { type ErrorDetail, invalidRequest } from '../errors.js';

/** Maps valibot issues to Error `details`: one entry per issue, `path` the dotted field name. */
export function issuesToDetails(issues: readonly v.BaseIssue<unknown>[], root?: string): ErrorDetail[] {
  return issues.map((issue) => {
    const path = issue.path?.map((p) => String(p.key)).join('.') || root || '';
    return { path, message: issue.message };
  });
}

/**
 * Validates `input` against `schema`; returns the output or throws one 400 naming every bad
 * field. valibot reports problems as data (`safeParse`), so nothing is thrown inside it.
 */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown, root?: string): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (result.success) return result.output;
  throw invalidRequest(issuesToDetails(result.issues, root));
}
