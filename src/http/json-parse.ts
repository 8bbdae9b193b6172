/**
 * A strict JSON parser (RFC 8259) that keeps integers exact: an integer literal (no fraction, no
 * exponent) becomes a `bigint`, any other number a `number`, so validation can refuse `1.0` and
 * `1e3` for int64 fields. Objects have no prototype, so `__proto__` and `constructor` are plain keys.
 *
 * Why our own: `JSON.parse` rounds every number to a double; with a reviver reading each number's
 * source text (every supported runtime has it) it is exact but slower by more than 3% of a create,
 * and so is lossless-json (`BENCH_ONLY=json-parse npm run bench`, docs/performance.md).
 */

/** Thrown for text that is not JSON; `message` is safe to show to clients. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
}

/** Nesting deeper than this is refused rather than risking the stack (no API body needs it). */
export const MAX_JSON_DEPTH = 64;

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

// The parser's state lives in the module, not in closures made per call (closures per body were
// a measurable part of a create's CPU, docs/performance.md). parseJson is synchronous and calls no outside code, so one
// parse cannot interleave with another.
let text = '';
let i = 0;

/** Parses JSON text; integer literals become `bigint`, other numbers `number`. */
export function parseJson(source: string): unknown {
  text = source;
  i = 0;
  try {
    const value = parseValue(0);
    skipWhitespace();
    if (i !== text.length) fail('unexpected data after the JSON value');
    return value;
  } finally {
    text = ''; // do not keep a large body alive
  }
}

function fail(what: string): never {
  throw new JsonSyntaxError(i >= text.length ? `unexpected end of JSON input` : `${what} at position ${i}`);
}

function skipWhitespace(): void {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return;
  }
}

function parseString(): string {
  i++; // opening quote
  let out = '';
  let start = i;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      out += text.slice(start, i);
      i++;
      return out;
    }
    if (c === 0x5c) {
      out += text.slice(start, i);
      const e = text[i + 1];
      if (e === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('invalid unicode escape');
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else {
        const ch = e === undefined ? undefined : ESCAPES[e];
        if (ch === undefined) fail('invalid escape');
        out += ch;
        i += 2;
      }
      start = i;
      continue;
    }
    if (Number.isNaN(c)) fail('unterminated string');
    if (c < 0x20) fail('control character in string');
    i++;
  }
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** A number as the grammar allows: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
function parseNumber(): bigint | number {
  const start = i;
  let c = text.charCodeAt(i);
  if (c === 0x2d) c = text.charCodeAt(++i);
  if (c === 0x30) i++;
  else if (c >= 0x31 && c <= 0x39) while (isDigit(text.charCodeAt(++i)));
  else {
    i = start;
    return fail('unexpected character');
  }
  let integer = true;
  // A fraction or exponent without digits is not part of the number (the next check fails on it).
  if (text.charCodeAt(i) === 0x2e && isDigit(text.charCodeAt(i + 1))) {
    integer = false;
    i++;
    while (isDigit(text.charCodeAt(++i)));
  }
  c = text.charCodeAt(i);
  if (c === 0x65 || c === 0x45) {
    const sign = text.charCodeAt(i + 1);
    const first = sign === 0x2b || sign === 0x2d ? i + 2 : i + 1;
    if (isDigit(text.charCodeAt(first))) {
      integer = false;
      i = first;
      while (isDigit(text.charCodeAt(++i)));
    }
  }
  const literal = text.slice(start, i);
  return integer ? BigInt(literal) : Number(literal);
}

function parseValue(depth: number): unknown {
  skipWhitespace();
  const c = text.charCodeAt(i);
  if (c === 0x7b) {
    if (depth >= MAX_JSON_DEPTH) fail(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
    i++;
    const obj = Object.create(null) as Record<string, unknown>;
    skipWhitespace();
    if (text.charCodeAt(i) === 0x7d) {
      i++;
      return obj;
    }
    for (;;) {
      skipWhitespace();
      if (text.charCodeAt(i) !== 0x22) fail('expected a property name');
      const key = parseString();
      skipWhitespace();
      if (text.charCodeAt(i) !== 0x3a) fail("expected ':'");
      i++;
      obj[key] = parseValue(depth + 1);
      skipWhitespace();
      const next = text.charCodeAt(i);
      if (next === 0x2c) i++;
      else if (next === 0x7d) {
        i++;
        return obj;
      } else fail("expected ',' or '}'");
    }
  }
  if (c === 0x5b) {
    if (depth >= MAX_JSON_DEPTH) fail(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
    i++;
    const arr: unknown[] = [];
    skipWhitespace();
    if (text.charCodeAt(i) === 0x5d) {
      i++;
      return arr;
    }
    for (;;) {
      arr.push(parseValue(depth + 1));
      skipWhitespace();
      const next = text.charCodeAt(i);
      if (next === 0x2c) i++;
      else if (next === 0x5d) {
        i++;
        return arr;
      } else fail("expected ',' or ']'");
    }
  }
  if (c === 0x22) return parseString();
  // By the first character: a number is tried without first testing for three literals.
  if (c === 0x74 && text.startsWith('true', i)) return ((i += 4), true);
  if (c === 0x66 && text.startsWith('false', i)) return ((i += 5), false);
  if (c === 0x6e && text.startsWith('null', i)) return ((i += 4), null);
  return parseNumber();
}
