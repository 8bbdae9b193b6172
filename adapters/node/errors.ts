import type { ServerResponse } from 'node:http';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The Error body (`{ code, message, status }`) for answers the bridge makes itself, below the
 * store: a handler that failed, a body over the cap, or an HTTP parser error. Same shape and
 * content type as the core's own error answers.
 */
export function errorJson(status: number, code: string, message: string): string {
  return JSON.stringify({ code, message, status });
}

/** Writes an Error body on a response whose headers have not been sent yet. */
export function writeError(res: ServerResponse, status: number, code: string, message: string, close = false): void {
  const body = errorJson(status, code, message);
  const headers: Record<string, string | number> = { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) };
  if (close) headers.connection = 'close';
  res.writeHead(status, headers);
  res.end(res.req?.method === 'HEAD' ? undefined : body);
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Content Too Large',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

/** A complete HTTP/1.1 error answer as raw text, for a socket the HTTP parser gave up on. */
export function rawErrorResponse(status: number, code: string, message: string): string {
  const body = errorJson(status, code, message);
  return (
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n` +
    `content-type: ${JSON_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
}
