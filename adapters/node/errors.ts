import type { ServerResponse } from 'node:http';
import { JSON_TYPE, requestIdFromHeader } from 'petstore-router';

/**
 * The Error body (`{ code, message, status }`) for answers the bridge makes itself, below the
 * store: a handler that failed, a body over the cap, or an HTTP parser error. Same shape and
 * content type as the core's own error answers.
 */
export function errorJson(status: number, code: string, message: string): string {
  return JSON.stringify({ code, message, status });
}

/**
 * Writes an Error body on a response whose headers have not been sent yet, with the request's
 * `X-Request-Id` (its own when valid, else a new one), as every answer of the store carries.
 */
export function writeError(res: ServerResponse, status: number, code: string, message: string, close = false): void {
  const body = errorJson(status, code, message);
  const given = res.req?.headers['x-request-id'];
  const headers: Record<string, string | number> = {
    'content-type': JSON_TYPE,
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestIdFromHeader(typeof given === 'string' ? given : undefined),
  };
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

/**
 * A complete HTTP/1.1 error answer as raw text, for a socket the HTTP parser gave up on (its
 * headers were not parsed, so the request id is always a new one).
 */
export function rawErrorResponse(status: number, code: string, message: string): string {
  const body = errorJson(status, code, message);
  return (
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n` +
    `content-type: ${JSON_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
    `x-request-id: ${requestIdFromHeader(undefined)}\r\nconnection: close\r\n\r\n${body}`
  );
}
