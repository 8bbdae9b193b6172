import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { type OpenApiDocument, type PetStoreOptions, openApiDocument } from '../../src/index.js';
import { parseJson } from '../../src/http/json-parse.js';

/**
 * Holds responses against the generated OpenAPI document: the status must be documented for the
 * operation (or, for a path or method no operation owns, be one of the generic answers the
 * document describes in `components.responses`), every required header present and valid, and
 * the body valid against the schema. Anything else throws, naming the request and the problem.
 *
 * Bodies are read with our bigint-exact parser. ajv knows no bigint, so each integer is checked
 * against the int64 range as a bigint first (our API has no wider integer) and then handed to
 * ajv as a number: `type: integer` and `format: int64` still hold, and no value is judged on a
 * rounded range. Exactness itself is the behavioural suite's business.
 *
 * Response objects get `additionalProperties: false` here (not in the published document, so
 * clients stay free to meet new fields): a field the document does not describe fails the test.
 */
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const DOC_ID = 'https://petstore-router.test/openapi.json';

type Json = { [key: string]: any };

export interface ContractChecker {
  /** Throws when `response` (read from a clone) is not what the document says for `method url`. */
  check(method: string, url: string, response: Response): Promise<void>;
}

export function createContractChecker(doc: OpenApiDocument, options: { basePath?: string } = {}): ContractChecker {
  const strict = strictDocument(doc);
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  // ajv-formats is CommonJS whose default export is the plugin itself; its types say `.default`.
  const addFormats = ((formats as unknown as { default?: typeof formats }).default ?? formats) as unknown as (a: Ajv2020) => void;
  addFormats(ajv);
  // The document is registered whole, so `$ref`s resolve as written; its top-level fields are
  // declared as annotations, or strict mode would refuse them as unknown keywords.
  ajv.addVocabulary(['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components']);
  ajv.addSchema(strict, DOC_ID);
  const validators = new Map<string, ValidateFunction>();
  const validator = (pointer: string): ValidateFunction => {
    const known = validators.get(pointer);
    if (known) return known;
    const compiled = ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
    validators.set(pointer, compiled);
    return compiled;
  };
  // A relative server (the default, `.`) resolves against the document's URL, `/v1/openapi.json` by default.
  const basePath = (options.basePath ?? new URL(doc.servers[0]?.url ?? '.', 'http://base/v1/openapi.json').pathname).replace(/\/+$/, '');
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));

  /** Follows a `$ref` within the document; returns the object and its JSON pointer. */
  const resolve = (obj: Json, pointer: string): [Json, string] => {
    if (typeof obj.$ref !== 'string') return [obj, pointer];
    const target = obj.$ref.slice(1);
    const found = target
      .split('/')
      .slice(1)
      .reduce<Json | undefined>((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], strict);
    if (!found) throw new Error(`contract: dangling $ref ${obj.$ref}`);
    return resolve(found, target);
  };

  async function checkAgainst(what: string, method: string, responseRef: Json, pointer: string, response: Response) {
    const [described, at] = resolve(responseRef, pointer);
    const problems: string[] = [];
    for (const [name, headerRef] of Object.entries<Json>(described.headers ?? {})) {
      const [header, headerAt] = resolve(headerRef, `${at}/headers/${escape(name)}`);
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`required header ${name} is missing`);
        continue;
      }
      const integer = header.schema?.type === 'integer';
      if (integer && !/^-?[0-9]+$/.test(value)) problems.push(`header ${name}: ${JSON.stringify(value)} is not an integer`);
      else validate(validator(`${headerAt}/schema`), integer ? Number(value) : value, `header ${name}`, problems);
    }
    const text = await response.text();
    const media = described.content?.['application/json'];
    if (method === 'HEAD' || !media) {
      if (text !== '') problems.push(`expected no body, got ${text.slice(0, 200)}`);
    } else if (!/^application\/json\s*(;|$)/i.test(response.headers.get('content-type') ?? '')) {
      problems.push(`content-type ${response.headers.get('content-type')} is not application/json`);
    } else {
      let body: unknown;
      try {
        body = forAjv(parseJson(text), '');
      } catch (error) {
        problems.push(`body: ${(error as Error).message}: ${text.slice(0, 200)}`);
      }
      if (!problems.length) validate(validator(`${at}/content/application~1json/schema`), body, 'body', problems, text);
    }
    if (problems.length) throw new Error(`contract: ${what} -> ${response.status}: ${problems.join('; ')}`);
  }

  return {
    async check(method, url, original) {
      const response = original.clone();
      const path = new URL(url).pathname;
      const what = `${method} ${path}`;
      const generic = (names: Record<number, string>) => {
        const name = names[response.status];
        if (!name) {
          throw new Error(`contract: ${what} -> ${response.status}: not described (expected ${Object.keys(names).join(' or ')})`);
        }
        return checkAgainst(what, method, { $ref: `#/components/responses/${name}` }, '', response);
      };
      const inBase = basePath === '' || path === basePath || path.startsWith(`${basePath}/`);
      if (!inBase) return generic({ 404: 'NotFound' });
      const rel = path.slice(basePath.length);
      const found = templates.find((t) => t.regex.test(rel));
      if (!found) return generic({ 401: 'Unauthorized', 404: 'NotFound' });
      const item = doc.paths[found.template]!;
      const operation = item[method === 'HEAD' ? 'get' : method.toLowerCase()];
      if (!operation) {
        if (response.status === 405) {
          const methods = Object.keys(item).map((m) => m.toUpperCase());
          if (methods.includes('GET')) methods.push('HEAD');
          const allow = methods.sort().join(', ');
          if (response.headers.get('allow') !== allow) {
            throw new Error(`contract: ${what} -> 405: Allow is ${response.headers.get('allow')}, the document says ${allow}`);
          }
        }
        return generic({ 401: 'Unauthorized', 405: 'MethodNotAllowed' });
      }
      const responses = operation.responses as Record<string, Json>;
      const status = String(response.status);
      const key = status in responses ? status : `${status[0]}XX` in responses ? `${status[0]}XX` : 'default';
      if (!(key in responses)) {
        throw new Error(
          `contract: ${what} -> ${status}: not documented for ${operation.operationId} (documented: ${Object.keys(responses).join(', ')})`,
        );
      }
      const pointer = `/paths/${escape(found.template)}/${method === 'HEAD' ? 'get' : method.toLowerCase()}/responses/${key}`;
      return checkAgainst(`${what} (${operation.operationId})`, method, responses[key]!, pointer, response);
    },
  };
}

function validate(fn: ValidateFunction, data: unknown, label: string, problems: string[], text?: string): void {
  if (fn(data)) return;
  const errors = (fn.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  problems.push(`${label} does not match the document: ${errors.join(', ')}${text ? ` in ${text.slice(0, 300)}` : ''}`);
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Integers (bigint from our parser) must be int64; then they are numbers, for ajv. */
function forAjv(value: unknown, at: string): unknown {
  if (typeof value === 'bigint') {
    if (value < INT64_MIN || value > INT64_MAX) throw new Error(`${at || '/'} ${value} is outside int64`);
    return Number(value);
  }
  if (Array.isArray(value)) return value.map((v, i) => forAjv(v, `${at}/${i}`));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forAjv(v, `${at}/${k}`)]));
  }
  return value;
}

/** A copy of the document whose component object schemas refuse properties they do not list. */
function strictDocument(doc: OpenApiDocument): Json {
  const copy = structuredClone(doc) as Json;
  for (const schema of Object.values<Json>(copy.components?.schemas ?? {})) {
    if (schema.type === 'object' && schema.properties && schema.additionalProperties === undefined) {
      schema.additionalProperties = false;
    }
  }
  return copy;
}

const checkers = new WeakMap<OpenApiDocument, ContractChecker>();

/** `createContractChecker(doc).check(...)`, with the checker (and its compiled schemas) cached per document. */
export function checkResponse(doc: OpenApiDocument, method: string, url: string, response: Response): Promise<void> {
  let checker = checkers.get(doc);
  if (!checker) checkers.set(doc, (checker = createContractChecker(doc)));
  return checker.check(method, url, response);
}

const storeCheckers = new Map<string, ContractChecker>();

/**
 * Wraps a transport's fetch so every response is checked against the document of a store with
 * these options (its base path, and whether it serves the document itself) before it is returned.
 */
export function withContract(
  fetch: (request: Request) => Promise<Response>,
  basePath: string,
  options: Partial<PetStoreOptions>,
): (request: Request) => Promise<Response> {
  const describeSelf = options.openapi !== false;
  const key = `${basePath}|${describeSelf}`;
  let checker = storeCheckers.get(key);
  if (!checker) {
    checker = createContractChecker(openApiDocument({ basePath, describeSelf }), { basePath });
    storeCheckers.set(key, checker);
  }
  const ready = checker;
  return async (request) => {
    const { method, url } = request;
    const response = await fetch(request);
    await ready.check(method, url, response);
    return response;
  };
}
