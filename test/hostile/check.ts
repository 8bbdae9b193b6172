import * as assert from 'uvu/assert';
import { parseJson } from '../../src/http/json-parse.js';
import { KEY } from '../helpers/harness.js';

/** Every call of the hostile suite must answer within this time. */
export const CALL_TIMEOUT_MS = 10_000;

/** Rejects when `promise` has not settled in `ms`: a hang fails the test instead of stalling it. */
export function within<T>(promise: Promise<T>, ms = CALL_TIMEOUT_MS, what = 'call'): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Secrets that must never be echoed: the real key, and whatever a hostile request presented. */
function assertNoLeak(text: string, secrets: readonly string[], where: string): void {
  for (const secret of secrets) {
    // Any 8 consecutive characters of a secret (a prefix, a suffix, the middle) count as a leak.
    // A presented string shorter than that can be an ordinary word of any answer: fast-check
    // generates "length", and every answer has a content-length header.
    const n = 8;
    if (secret.length < n) continue;
    for (let i = 0; i + n <= secret.length; i++) {
      assert.not.ok(text.includes(secret.slice(i, i + n)), `${where} leaks part of a key: ${secret.slice(i, i + n)}`);
    }
  }
}

/** The secret-looking parts of an Authorization value (its words, less the scheme names). */
export function presented(authorization: string): string[] {
  return [KEY, ...authorization.split(/[\s,]+/).filter((w) => !/^(?:bearer|basic|token)$/i.test(w))];
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body read with the bigint-exact parser; undefined for an empty or non-JSON body. */
  json: any;
}

/**
 * Reads a response and applies the invariants of every answer: never 5xx; no key in a header or
 * the body; a 4xx carries the Error body (`code` snake_case, `message`, `status` = HTTP status).
 */
export async function answer(res: Response, secrets: readonly string[] = [KEY]): Promise<Answer> {
  const text = await within(res.text(), CALL_TIMEOUT_MS, 'reading the body');
  assert.ok(res.status < 500, `a hostile request got ${res.status}: ${text.slice(0, 200)}`);
  res.headers.forEach((value, name) => assertNoLeak(`${name}: ${value}`, secrets, `header ${name}`));
  assertNoLeak(text, secrets, 'the body');
  let json: any;
  try {
    json = text === '' ? undefined : parseJson(text);
  } catch {
    json = undefined;
  }
  if (res.status >= 400) {
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/i);
    assert.ok(json && typeof json === 'object', `${res.status} without a JSON body: ${text.slice(0, 200)}`);
    assert.match(String(json.code), /^[a-z]+(?:_[a-z]+)*$/);
    assert.type(json.message, 'string');
    assert.ok(json.message.length > 0);
    assert.is(json.status, BigInt(res.status), 'Error.status equals the HTTP status');
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** `answer`, then the status (or one of several) and, when given, the Error code. */
export async function expectStatus(res: Response, status: number | number[], code?: string, secrets?: readonly string[]): Promise<Answer> {
  const a = await answer(res, secrets);
  const allowed = Array.isArray(status) ? status : [status];
  assert.ok(allowed.includes(a.status), `expected ${allowed.join(' or ')}, got ${a.status}: ${a.text.slice(0, 200)}`);
  if (code !== undefined) assert.is(a.json.code, code);
  return a;
}

/** JSON text with bigint written as exact integers (JSON.stringify throws on bigint). */
export function toJson(value: unknown): string {
  const marked = JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `\u0000big:${v}` : v));
  return marked.replace(/"\\u0000big:(-?[0-9]+)"/g, '$1');
}

/** A body that makes its chunks only when pulled, and counts how many bytes were pulled. */
export function lazyBody(totalBytes: number, chunkBytes = 64 * 1024): { stream: ReadableStream<Uint8Array>; pulled(): number } {
  let pulled = 0;
  const chunk = new Uint8Array(chunkBytes).fill(0x20);
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= totalBytes) return controller.close();
        const n = Math.min(chunkBytes, totalBytes - pulled);
        pulled += n;
        controller.enqueue(n === chunkBytes ? chunk.slice() : chunk.slice(0, n));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}
