import * as v from 'valibot';
import { issuesToDetails } from '../schemas/issues.js';
import { type ErrorDetail, invalidRequest } from './errors.js';

type QuerySchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

/**
 * Validates the query string against an object schema of string parameters. A known parameter
 * given more than once is a 400 (even with equal values), reported together with every other bad
 * parameter; unknown parameters are ignored, repeated or not.
 */
export function parseQuery<S extends QuerySchema>(search: URLSearchParams, schema: S): v.InferOutput<S> {
  const input: Record<string, string> = {};
  const details: ErrorDetail[] = [];
  for (const name of Object.keys(schema.entries)) {
    const values = search.getAll(name);
    if (values.length > 1) details.push({ path: name, message: 'must be given at most once' });
    else if (values.length === 1) input[name] = values[0]!;
  }
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (!result.success) details.push(...issuesToDetails(result.issues));
  if (details.length) throw invalidRequest(details);
  return result.output as v.InferOutput<S>;
}
