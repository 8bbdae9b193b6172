import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

import { NodeJsonResponse } from './json-response.js';

const noop = () => {};

/**
 * Writes a web Response on a Node response: status, headers (each Set-Cookie on its own line),
 * then the body. A body of one chunk (every JSON answer of the store) goes out in a single write
 * with Content-Length, because socket writes dominate the server's CPU; longer bodies stream with
 * back-pressure. HEAD answers and null bodies send headers only.
 */
export function writeResponse(res: ServerResponse, response: Response, close: boolean): Promise<void> | undefined {
  // Synchronous for the store's lazy JSON answers (nearly every answer): no async layer, no
  // promise, for the caller to await (handler.ts awaits only a returned promise).
  return writeJsonAnswer(res, response, close) ? undefined : writeOther(res, response, close);
}

/**
 * Writes a JSON answer the store built with our factory (json-response.ts), untouched: no Headers,
 * no Response built. False when `response` is something else or the request is a HEAD.
 */
function writeJsonAnswer(res: ServerResponse, response: Response, close: boolean): boolean {
  const parts = NodeJsonResponse.untouched(response);
  if (parts === undefined || res.req.method === 'HEAD') return false;
  // The answer's own field object (nobody else holds it once the store returned): no copy.
  const fields: OutgoingHttpHeaders = parts.fields ?? toNodeHeaders(parts.headers!);
  if (close) fields.connection = 'close';
  fields['content-length'] = Buffer.byteLength(parts.text);
  res.writeHead(parts.status, fields);
  res.end(parts.text);
  return true;
}

async function writeOther(res: ServerResponse, response: Response, close: boolean): Promise<void> {
  const headers = toNodeHeaders(response.headers);
  if (close) headers.connection = 'close';
  const body = response.body;
  if (body === null || res.req.method === 'HEAD') {
    body?.cancel().catch(noop);
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  const reader = body.getReader();
  const cancel = () => void reader.cancel().catch(noop);
  res.once('close', cancel); // the client left: stop producing
  try {
    const first = await reader.read();
    if (first.done) {
      headers['content-length'] = 0;
      res.writeHead(response.status, headers);
      res.end();
      return;
    }
    const second = await reader.read();
    if (second.done) {
      headers['content-length'] = first.value.byteLength;
      res.writeHead(response.status, headers);
      res.end(first.value);
      return;
    }
    res.writeHead(response.status, headers);
    res.write(first.value);
    let chunk: ReadableStreamReadResult<Uint8Array> = second;
    for (; !chunk.done; chunk = await reader.read()) {
      if (res.destroyed) return;
      if (!res.write(chunk.value)) await drained(res);
    }
    res.end();
  } finally {
    res.off('close', cancel);
  }
}

/** Header names arrive lower-cased from Headers; Set-Cookie values stay separate lines. */
function toNodeHeaders(source: Headers): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  let cookies = false;
  for (const [name, value] of source) {
    if (name === 'set-cookie') cookies = true;
    else headers[name] = value;
  }
  if (cookies) headers['set-cookie'] = source.getSetCookie();
  return headers;
}

/** Resolves once the socket wants more data, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}
