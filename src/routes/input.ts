import * as v from 'valibot';
import type { RouteRequest } from './context.js';
import { deprecationHeaders, isSunset } from '../deprecation.js';
import { readJsonObject } from '../http/body.js';
import { ApiError, ErrorCode, type ErrorDetail, invalidRequest } from '../errors.js';
import type { Answer } from '../http/answer.js';
import { issuesToDetails } from '../schemas/issues.js';
import type { TextParam, TextParams } from '../schemas/param.js';
import type { RequestShape, RouteDefinition, RouteDocumentation, RouteInput, RouteSpec } from './definition.js';

/** Marks a parameter that failed; its details were recorded. */
const INVALID = Symbol('invalid');
const EMPTY: Readonly<Record<string, never>> = Object.freeze({});
/** One message per parameter: a text that fails one rule is not reported again by the next. */
const ONE_ISSUE = { abortPipeEarly: true } as const;

/** A location's parameters as parallel arrays, walked by index on every request. */
interface Entries {
  names: readonly string[];
  params: readonly TextParam[];
  /** Header names in lower case, as `requestHeader` takes them. */
  lower: readonly string[];
}

/** One text value, by its valibot schema, which words every refusal. */
function parseText(details: ErrorDetail[], name: string, param: TextParam, text: string): unknown {
  const result = v.safeParse(param.schema, text, ONE_ISSUE);
  if (result.success) return result.output;
  details.push(...result.issues.map((issue) => ({ path: name, message: issue.message })));
  return INVALID;
}

/**
 * Reads the query parameters the definition names. A known parameter given more than once is a
 * 400 (even with equal values); unknown parameters are ignored, repeated or not.
 */
function readQuery(details: ErrorDetail[], entries: Entries, search: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < entries.names.length; i++) {
    const name = entries.names[i]!;
    const param = entries.params[i]!;
    const values = search.getAll(name);
    if (values.length > 1) {
      details.push({ path: name, message: 'must be given at most once' });
      continue;
    }
    const text = values.length === 1 ? values[0]! : param.default;
    if (text === undefined) continue;
    const value = parseText(details, name, param, text);
    if (value !== INVALID) out[name] = value;
  }
  return out;
}

function readPath(details: ErrorDetail[], entries: Entries, raw: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < entries.names.length; i++) {
    const name = entries.names[i]!;
    const value = parseText(details, name, entries.params[i]!, raw[name] ?? '');
    if (value !== INVALID) out[name] = value;
  }
  return out;
}

function readHeaders(details: ErrorDetail[], entries: Entries, req: RouteRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < entries.names.length; i++) {
    const name = entries.names[i]!;
    const text = req.request.headers.get(entries.lower[i]!);
    if (text === null) continue;
    const value = parseText(details, name, entries.params[i]!, text);
    if (value !== INVALID) out[name] = value;
  }
  return out;
}

function entriesOf(params: TextParams | undefined): Entries | undefined {
  if (params === undefined) return undefined;
  const names = Object.keys(params);
  return { names, params: names.map((name) => params[name]!), lower: names.map((name) => name.toLowerCase()) };
}

/**
 * Builds the pipeline's handler of a definition: 410 past a deprecated operation's sunset, then
 * the body (415, 413, malformed JSON), then every part validated at once (one 400 naming every
 * bad field, path parameters included), then the typed handler.
 */
export function compileHandler<R extends RequestShape>(documentation: RouteDocumentation, spec: RouteSpec<R>): RouteDefinition {
  const { request: shape = {}, deprecation } = documentation;
  const params = entriesOf(shape.params);
  const query = entriesOf(shape.query);
  const headers = entriesOf(shape.headers);
  const body = shape.body?.schema;
  const { refine, handler } = spec;
  const inPath = [...documentation.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]).sort();
  const declared = Object.keys(shape.params ?? {}).sort();
  if (inPath.join() !== declared.join()) {
    throw new TypeError(
      `petstore-router: ${documentation.operationId}: the path names [${inPath.join(',')}] but request.params declares [${declared.join(',')}]`,
    );
  }
  const template = documentation.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const gone =
    deprecation &&
    `${documentation.method} ${template} has been removed; use ${deprecation.successor.method} ${deprecation.successor.path}`;

  /** Synchronous up to the handler's own promise: no async layer of its own per request. */
  function run(req: RouteRequest, raw: unknown): Promise<Answer> {
    const details: ErrorDetail[] = [];
    const input = {
      request: req.request,
      url: req.url,
      store: req.store,
      principal: req.principal,
      params: params ? readPath(details, params, req.params) : EMPTY,
      query: query ? readQuery(details, query, req.url.searchParams) : EMPTY,
      headers: headers ? readHeaders(details, headers, req) : EMPTY,
      body: undefined as unknown,
    };
    if (body !== undefined) {
      const parsed = v.safeParse(body, raw, { abortEarly: false });
      if (parsed.success) input.body = parsed.output;
      else details.push(...issuesToDetails(parsed.issues));
    }
    // Every part was just validated against R's schemas: the input is R's typed input.
    if (details.length === 0 && refine) {
      const crossed = refine(input as unknown as RouteInput<R>);
      if (crossed) details.push(...crossed);
    }
    if (details.length > 0) throw invalidRequest(details);
    return handler(input as unknown as RouteInput<R>);
  }

  function handle(req: RouteRequest): Promise<Answer> {
    try {
      if (gone !== undefined && isSunset(req.store.deprecation, req.store.now()))
        throw new ApiError({ status: 410, code: ErrorCode.gone, message: gone });
      if (body === undefined) return run(req, undefined);
      return req.rawBody === undefined ? readAndRun(req) : run(req, req.rawBody);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The body (when the pipeline has not read it), then the rest. `return await`: the handler's answer settles this function's promise
   * as a value, where a promise returned from a `then` callback (or returned un-awaited from an
   * async function) is adopted through two more microtask turns.
   */
  async function readAndRun(req: RouteRequest): Promise<Answer> {
    const raw = await readJsonObject(req.request);
    return await run(req, raw);
  }

  return {
    ...documentation,
    handler: handle,
    ...(deprecation && {
      headers: ({ url, store }: RouteRequest) =>
        deprecationHeaders(store.deprecation, `${url.origin}${store.basePath}${deprecation.successor.path}`),
    }),
  };
}
