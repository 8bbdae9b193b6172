import * as v from 'valibot';
import type { RouteRequest } from '../context.js';
import { deprecationHeaders, isSunset } from '../deprecation.js';
import { readJsonObject } from '../http/body.js';
import { ApiError, ErrorCode, type ErrorDetail, invalidRequest } from '../http/errors.js';
import { requestHeader } from '../http/header.js';
import { issuesToDetails } from '../schemas/issues.js';
import type { TextParam, TextParams } from '../schemas/param.js';
import type { RouteDefinition, RouteDocumentation, RouteInput, RouteSpec } from './define.js';

/** Marks a parameter that failed; its details were recorded. */
const INVALID = Symbol('invalid');
const EMPTY: Readonly<Record<string, never>> = Object.freeze({});
/** One message per parameter: a text that fails one rule is not reported again by the next. */
const ONE_ISSUE = { abortPipeEarly: true } as const;

type Details = ErrorDetail[] | undefined;
type Entries = readonly (readonly [string, TextParam])[];

/**
 * One text value: the fast `parse` when the parameter has one, else its valibot schema. When the
 * fast parse refuses, valibot decides and words the detail, so the messages have one source.
 */
function parseText(name: string, param: TextParam, text: string, found: { details: Details }): unknown {
  if (param.parse !== undefined) {
    const fast = param.parse(text);
    if (fast !== undefined) return fast;
  }
  const result = v.safeParse(param.schema, text, ONE_ISSUE);
  if (result.success) return result.output;
  (found.details ??= []).push(...result.issues.map((issue) => ({ path: name, message: issue.message })));
  return INVALID;
}

/**
 * Reads the query parameters the definition names. A known parameter given more than once is a
 * 400 (even with equal values); unknown parameters are ignored, repeated or not.
 */
function readQuery(entries: Entries, search: URLSearchParams, found: { details: Details }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, param] of entries) {
    const values = search.getAll(name);
    if (values.length > 1) {
      (found.details ??= []).push({ path: name, message: 'must be given at most once' });
      continue;
    }
    const text = values.length === 1 ? values[0]! : param.default;
    if (text === undefined) continue;
    const value = parseText(name, param, text, found);
    if (value !== INVALID) out[name] = value;
  }
  return out;
}

function readPath(entries: Entries, raw: Record<string, string>, found: { details: Details }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, param] of entries) {
    const value = parseText(name, param, raw[name] ?? '', found);
    if (value !== INVALID) out[name] = value;
  }
  return out;
}

function readHeaders(entries: Entries, request: Request, found: { details: Details }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, param] of entries) {
    const text = requestHeader(request, name.toLowerCase());
    if (text === null) continue;
    const value = parseText(name, param, text, found);
    if (value !== INVALID) out[name] = value;
  }
  return out;
}

const entriesOf = (params: TextParams | undefined): Entries | undefined => (params ? Object.entries(params) : undefined);

/**
 * Builds the pipeline's handler of a definition: 410 past a deprecated operation's sunset, then
 * the body (415, 413, malformed JSON), then every part validated at once (one 400 naming every
 * bad field, path parameters included), then the typed handler.
 */
export function compileHandler(documentation: RouteDocumentation, spec: RouteSpec<any>): RouteDefinition {
  const { request: shape = {}, deprecation } = documentation;
  const params = entriesOf(shape.params);
  const query = entriesOf(shape.query);
  const headers = entriesOf(shape.headers);
  const body = shape.body?.schema;
  const { refine, handler } = spec;
  const inPath = [...documentation.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]).sort();
  const declared = Object.keys(shape.params ?? {}).sort();
  if (inPath.join() !== declared.join()) {
    throw new TypeError(`petstore-router: ${documentation.operationId}: the path names [${inPath}] but request.params declares [${declared}]`);
  }
  const template = documentation.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const gone = deprecation && `${documentation.method} ${template} has been removed; use ${deprecation.successor.method} ${deprecation.successor.path}`;

  async function handle(req: RouteRequest): Promise<Response> {
    if (gone !== undefined && isSunset(req.store.deprecation, req.store.now())) throw new ApiError(410, ErrorCode.gone, gone);
    const raw = body === undefined ? undefined : await readJsonObject(req.request);
    const found: { details: Details } = { details: undefined };
    const input: RouteInput = {
      request: req.request,
      url: req.url,
      store: req.store,
      principal: req.principal,
      params: params ? readPath(params, req.params, found) : EMPTY,
      query: query ? readQuery(query, req.url.searchParams, found) : EMPTY,
      headers: headers ? readHeaders(headers, req.request, found) : EMPTY,
      body: undefined,
    } as RouteInput;
    if (body !== undefined) {
      const parsed = v.safeParse(body, raw, { abortEarly: false });
      if (parsed.success) input.body = parsed.output as never;
      else (found.details ??= []).push(...issuesToDetails(parsed.issues));
    }
    if (found.details === undefined && refine) {
      const crossed = refine(input);
      if (crossed) found.details = [...crossed];
    }
    if (found.details !== undefined) throw invalidRequest(found.details);
    return handler(input);
  }

  return {
    ...documentation,
    handler: handle,
    ...(deprecation && {
      headers: ({ url, store }: RouteRequest) => deprecationHeaders(store.deprecation, `${url.origin}${store.basePath}${deprecation.successor.path}`),
    }),
  };
}
