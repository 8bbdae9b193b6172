/**
 * A strict JSON parser (RFC 8259) that keeps integers exact.
 *
 * Why our own: `JSON.parse` turns every number into a double, so `9007199254740993` silently
 * becomes `9007199254740992`, and `1.0` cannot be told apart from `1`. Node 20 has no
 * `JSON.parse` source-text access. Here an integer literal (no fraction, no exponent) becomes a
 * `bigint`; any other number stays a `number`, so validation can reject `1.0` and `1e3` for int64
 * fields. Objects have no prototype, so `__proto__` and `constructor` are plain keys.
 */

/** Thrown for text that is not JSON; `message` is safe to show to clients. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
}

/** Nesting deeper than this is refused rather than risking the stack (no API body needs it). */
export const MAX_JSON_DEPTH = 64;

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

/** Parses JSON text; integer literals become `bigint`, other numbers `number`. */
export function parseJson(text: string): unknown {
  let i = 0;

  const fail = (what: string): never => {
    throw new JsonSyntaxError(i >= text.length ? `unexpected end of JSON input` : `${what} at position ${i}`);
  };
  const skipWhitespace = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };

  const parseString = (): string => {
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
  };

  const parseValue = (depth: number): unknown => {
    skipWhitespace();
    const c = text[i];
    if (c === '{') {
      if (depth >= MAX_JSON_DEPTH) fail(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
      i++;
      const obj: Record<string, unknown> = Object.create(null);
      skipWhitespace();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        skipWhitespace();
        if (text[i] !== '"') fail('expected a property name');
        const key = parseString();
        skipWhitespace();
        if (text[i] !== ':') fail("expected ':'");
        i++;
        obj[key] = parseValue(depth + 1);
        skipWhitespace();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return obj;
        } else fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      if (depth >= MAX_JSON_DEPTH) fail(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
      i++;
      const arr: unknown[] = [];
      skipWhitespace();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(depth + 1));
        skipWhitespace();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return arr;
        } else fail("expected ',' or ']'");
      }
    }
    if (c === '"') return parseString();
    if (text.startsWith('true', i)) return (i += 4), true;
    if (text.startsWith('false', i)) return (i += 5), false;
    if (text.startsWith('null', i)) return (i += 4), null;
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail('unexpected character');
    i = NUMBER.lastIndex;
    return m[1] === undefined && m[2] === undefined ? BigInt(m[0]) : Number(m[0]);
  };

  const value = parseValue(0);
  skipWhitespace();
  if (i !== text.length) fail('unexpected data after the JSON value');
  return value;
}
